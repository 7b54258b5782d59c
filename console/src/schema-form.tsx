/**
 * A form made from an operation's JSON schema (the server's OpenAPI document): a control per
 * property, required ones first, the rest folded away. Values are kept as text and turned into
 * the body's types on submit, so that a bad number or JSON is named by its field.
 */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  minimum?: number;
  maximum?: number;
}

export type Values = Record<string, string>;

const typeOf = (schema: Schema): string => {
  if (schema.enum) return 'enum';
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  const branch = schema.anyOf?.find((s) => s.type !== 'null');
  return branch ? typeOf(branch) : 'json';
};

const LONG = /prompt|lyric|content|text|style|query|input/;

/** The body the values stand for, or the first field that does not read as its type. */
export function bodyOf(
  schema: Schema,
  values: Values,
): { body: Record<string, unknown> } | { field: string; rule: string } {
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const text = values[name]?.trim() ?? '';
    if (text === '') continue;
    const type = typeOf(property);
    if (type === 'integer' || type === 'number') {
      const value = Number(text);
      if (!Number.isFinite(value)) return { field: name, rule: 'must be a number' };
      body[name] = value;
    } else if (type === 'boolean') body[name] = text === 'true';
    else if (type === 'array' || type === 'object' || type === 'json') {
      try {
        body[name] = JSON.parse(text);
      } catch {
        return { field: name, rule: 'must be JSON' };
      }
    } else if (type === 'enum' && typeof property.enum?.[0] !== 'string') body[name] = JSON.parse(text);
    else body[name] = values[name];
  }
  return { body };
}

function Control({
  name,
  schema,
  required,
  value,
  onInput,
}: {
  name: string;
  schema: Schema;
  required: boolean;
  value: string;
  onInput: (value: string) => void;
}) {
  const type = typeOf(schema);
  const id = `field-${name}`;
  const hintId = `${id}-hint`;
  const common = { id, name, 'aria-describedby': schema.description ? hintId : undefined };
  let control;
  if (type === 'enum' || type === 'boolean') {
    const options = type === 'boolean' ? ['true', 'false'] : (schema.enum ?? []).map(String);
    control = (
      <select {...common} value={value} onChange={(e) => onInput(e.currentTarget.value)}>
        <option value="">{schema.default !== undefined ? `default (${String(schema.default)})` : '—'}</option>
        {options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    );
  } else if (type === 'integer' || type === 'number') {
    control = (
      <input
        {...common}
        type="number"
        step={type === 'integer' ? 1 : 'any'}
        min={schema.minimum}
        max={schema.maximum}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    );
  } else if (type === 'string' && !LONG.test(name)) {
    control = <input {...common} value={value} onInput={(e) => onInput(e.currentTarget.value)} />;
  } else {
    control = (
      <textarea
        {...common}
        rows={type === 'string' ? 3 : 4}
        class={type === 'string' ? '' : 'code'}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    );
  }
  return (
    <div class="field">
      <label for={id} class="field-label">
        {name}
        {required && <span aria-hidden="true"> *</span>}
        {required && <span class="sr-only"> (required)</span>}
        {!['string', 'enum'].includes(type) && <span class="muted"> {type === 'json' ? 'JSON' : type}</span>}
      </label>
      {control}
      {schema.description && (
        <span class="hint" id={hintId}>
          {schema.description}
        </span>
      )}
    </div>
  );
}

export function SchemaForm({
  schema,
  values,
  prominent,
  onChange,
}: {
  schema: Schema;
  values: Values;
  /** Fields shown before the fold besides the required ones. */
  prominent: string[];
  onChange: (values: Values) => void;
}) {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  const control = ([name, property]: [string, Schema]) => (
    <Control
      key={name}
      name={name}
      schema={property}
      required={required.has(name)}
      value={values[name] ?? ''}
      onInput={(value) => onChange({ ...values, [name]: value })}
    />
  );
  const up = (name: string) => required.has(name) || prominent.includes(name);
  const first = entries.filter(([name]) => up(name));
  const rest = entries.filter(([name]) => !up(name));
  return (
    <>
      <div class="form-grid">{first.map(control)}</div>
      {rest.length > 0 && (
        <details class="more-fields">
          <summary>Other fields ({rest.length})</summary>
          <div class="form-grid">{rest.map(control)}</div>
        </details>
      )}
    </>
  );
}
