/** The identity registry: enrol with a portrait, the masked list, removal. */
import { useState } from 'preact/hooks';
import { del, get, post, type Page } from '../api';
import {
  Empty,
  ErrorNote,
  Field,
  Loading,
  PageHeader,
  Section,
  Table,
  useAction,
  useLoad,
  when,
} from '../ui';

interface IdentityRow {
  id: string;
  name: string;
  id_number: string;
  portrait: boolean;
  enrolled_at: string;
}

/** A file's bytes in base64, as the admin API takes a portrait. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

export function Identities() {
  const list = useLoad(() => get<Page<IdentityRow>>('/identities'), []);
  const [name, setName] = useState('');
  const [number, setNumber] = useState('');
  const [portrait, setPortrait] = useState<File>();
  const enrol = useAction(async () =>
    post<IdentityRow>('/identities', {
      name,
      id_number: number,
      ...(portrait ? { portrait: await base64Of(portrait) } : {}),
    }),
  );
  const remove = useAction(async (id: string) => {
    await del(`/identities/${id}`);
    list.reload();
    return id;
  });
  const rows = list.data?.rows ?? [];
  return (
    <>
      <PageHeader title="Identities">
        The registry that ID card checks compare against. Names and numbers are masked here.
      </PageHeader>
      <Section title="Enrol an identity">
        <form
          class="form-grid"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await enrol.start()) {
              setName('');
              setNumber('');
              setPortrait(undefined);
              (e.currentTarget as HTMLFormElement).reset();
              list.reload();
            }
          }}
        >
          <Field label="Name on the card">
            <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          </Field>
          <Field label="ID number" hint="18 characters: 17 digits and a digit or X">
            <input
              required
              value={number}
              inputMode="numeric"
              onInput={(e) => setNumber(e.currentTarget.value)}
            />
          </Field>
          <Field label="Portrait" hint="PNG or JPEG, optional">
            <input
              type="file"
              accept="image/png,image/jpeg"
              onChange={(e) => setPortrait(e.currentTarget.files?.[0])}
            />
          </Field>
          <div class="actions">
            <button type="submit" class="primary" disabled={enrol.busy}>
              Enrol
            </button>
          </div>
        </form>
        <ErrorNote error={enrol.error} />
        {enrol.result && <p role="status">Enrolled {enrol.result.name}.</p>}
      </Section>
      <Section title="Registry">
        <ErrorNote error={list.error ?? remove.error} />
        {!list.data && !list.error && <Loading what="identities" />}
        {list.data && rows.length === 0 && (
          <Empty title="Nobody is enrolled.">
            Enrol an identity above; ID card checks then compare cards with it.
          </Empty>
        )}
        {rows.length > 0 && (
          <Table caption="Enrolled identities">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">ID number</th>
                <th scope="col">Portrait</th>
                <th scope="col">Enrolled</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{r.name}</td>
                  <td>
                    <code>{r.id_number}</code>
                  </td>
                  <td>{r.portrait ? 'yes' : 'no'}</td>
                  <td>{when(r.enrolled_at)}</td>
                  <td>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => remove.start(r.id)}
                      aria-label={`Remove ${r.name}`}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>
    </>
  );
}
