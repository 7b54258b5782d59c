/**
 * Queries that Kysely builds and compiles once, then run again and again with new values. Building
 * a query's tree and compiling it to SQL cost Kysely about 8 µs a statement, more than SQLite took
 * to run most of those on the task path (about ten per task). A prepared query is written with
 * Kysely as any other, with a `slot(name)` wherever a value comes at run time; it is compiled on
 * its first run against each dialect (SQLite and PostgreSQL compile differently), and each later
 * run only puts the values in their places. Constants written into the query stay as compiled.
 */
import type { Compilable, CompiledQuery, Insertable, Kysely } from 'kysely';
import type { Database } from './tables.js';

/** Where a value given at run time goes; a parameter of the compiled query. */
class Slot {
  constructor(readonly name: string) {}
}

/** The compiled query, and per parameter the slot it takes its value from or the constant compiled in. */
interface Plan {
  compiled: CompiledQuery;
  from: readonly unknown[];
}

export type SlotOf<Args> = <K extends keyof Args & string>(name: K) => Args[K];

/**
 * A query with named slots. `build` must make the same query whatever it is given: it runs once
 * per dialect, with stand-ins for the values.
 */
export function preparedQuery<Args extends object, Row = unknown>(
  build: (db: Kysely<Database>, slot: SlotOf<Args>) => Compilable<Row>,
): (db: Kysely<Database>, args: Args) => Promise<Row[]> {
  const plans = new Map<unknown, Plan>();
  const slot = ((name: string) => new Slot(name)) as SlotOf<Args>;
  return async (db, args) => {
    const dialect = db.getExecutor().adapter.constructor;
    let plan = plans.get(dialect);
    if (!plan) {
      const compiled = build(db, slot).compile();
      plan = { compiled, from: compiled.parameters };
      plans.set(dialect, plan);
    }
    const parameters = plan.from.map((p) =>
      p instanceof Slot ? (args as Record<string, unknown>)[p.name] : p,
    );
    const result = await db.executeQuery<Row>({ ...plan.compiled, parameters });
    return result.rows;
  };
}

/**
 * An INSERT of one row into `table`. The columns are those of the first row inserted; a later
 * row of another shape is refused rather than written with columns missing.
 */
export function preparedInsert<T extends keyof Database & string>(
  table: T,
): (db: Kysely<Database>, row: Insertable<Database[T]>) => Promise<void> {
  let columns: string[] | undefined;
  let named: Set<string> | undefined;
  const insert = preparedQuery<Record<string, unknown>>((db, slot) =>
    db
      .insertInto(table)
      .values(Object.fromEntries((columns ?? []).map((column) => [column, slot(column)])) as never),
  );
  return async (db, row) => {
    columns ??= Object.keys(row);
    named ??= new Set(columns);
    const given = Object.keys(row);
    if (given.length !== named.size || given.some((column) => !named?.has(column))) {
      throw new Error(`${table}: a row with other columns than the first one inserted`);
    }
    await insert(db, row as Record<string, unknown>);
  };
}
