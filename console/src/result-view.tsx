/**
 * An operation's answer as a person wants to see it: songs with their waveform and a player,
 * videos in a player, images (QR art, covers), search results as links, a card's fields as a
 * list; the JSON itself one click away.
 */
import { AudioWithWaveform } from './waveform';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One thing the answer made: a song, a video, an image, with what belongs to it. */
interface Item {
  title: string;
  audio?: string;
  video?: string;
  image?: string;
}

const KINDS = { audio_url: 'audio', video_url: 'video', image_url: 'image' } as const;
const isUrl = (value: Json | undefined): value is string =>
  typeof value === 'string' && /^(https?:|\/|data:image\/)/.test(value);

/** Each object of the answer that names media is an item; the request echoed back is not. */
function itemsIn(value: Json, found: Item[] = []): Item[] {
  if (Array.isArray(value)) value.forEach((entry) => itemsIn(entry, found));
  else if (value && typeof value === 'object') {
    const item: Item = { title: typeof value.title === 'string' && value.title ? value.title : 'Result' };
    for (const [key, kind] of Object.entries(KINDS)) {
      const url = value[key];
      if (isUrl(url) && !found.some((f) => f[kind] === url)) item[kind] = url;
    }
    if (item.audio || item.video || item.image) found.push(item);
    for (const [key, entry] of Object.entries(value)) if (key !== 'request') itemsIn(entry, found);
  }
  return found;
}

function ItemView({ item }: { item: Item }) {
  if (item.audio)
    return (
      <article class="song" aria-label={`Song: ${item.title}`}>
        {item.image && <img src={item.image} alt={`Cover of ${item.title}`} class="cover" />}
        <div class="song-body">
          <AudioWithWaveform url={item.audio} title={item.title} />
          {item.video && (
            <details>
              <summary>Video</summary>
              <video controls preload="none" src={item.video} aria-label={`Video: ${item.title}`} />
            </details>
          )}
        </div>
      </article>
    );
  if (item.video)
    return (
      <video
        controls
        preload="metadata"
        src={item.video}
        aria-label={`Video: ${item.title}`}
        poster={item.image}
      />
    );
  return <img src={item.image} alt={`Image: ${item.title}`} class="result-image" />;
}

interface Organic {
  title?: string;
  link?: string;
  snippet?: string;
}

/** A card's fields: the text values of the object that holds them. */
function fieldsOf(value: Json): [string, string][] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  const holder = ['words_result', 'data', 'fields', 'card']
    .map((k) => value[k])
    .find((v) => v && typeof v === 'object');
  const source = (holder && !Array.isArray(holder) ? holder : value) as Record<string, Json>;
  return Object.entries(source)
    .filter(
      ([key, v]) =>
        (typeof v === 'string' || typeof v === 'number') && !key.endsWith('_url') && !key.endsWith('id'),
    )
    .map(([key, v]) => [key, String(v)]);
}

export function ResultView({ value }: { value: unknown }) {
  const json = value as Json;
  const items = itemsIn(json);
  const organic =
    json && typeof json === 'object' && !Array.isArray(json) && Array.isArray(json.organic)
      ? (json.organic as Organic[])
      : null;
  const isIdentity =
    json &&
    typeof json === 'object' &&
    !Array.isArray(json) &&
    ('words_result' in json || 'id_card' in json || 'id_number' in json);
  const fields = isIdentity ? fieldsOf(json) : [];
  return (
    <div class="result">
      {items.map((item) => (
        <ItemView key={item.audio ?? item.video ?? item.image} item={item} />
      ))}
      {organic && (
        <ol class="organic" aria-label="Search results">
          {organic.length === 0 && <li class="muted">No results: the index holds nothing that matches.</li>}
          {organic.map((o, i) => (
            <li key={i}>
              <a href={o.link} rel="noreferrer">
                {o.title ?? o.link}
              </a>
              {o.snippet && <p>{o.snippet}</p>}
            </li>
          ))}
        </ol>
      )}
      {fields.length > 0 && (
        <dl class="facts card-fields">
          {fields.map(([k, v]) => (
            <>
              <dt key={`${k}-t`}>{k}</dt>
              <dd key={`${k}-d`}>{v}</dd>
            </>
          ))}
        </dl>
      )}
      <details>
        <summary>JSON</summary>
        <pre class="json">{JSON.stringify(value, null, 2)}</pre>
      </details>
    </div>
  );
}
