/**
 * An operation's answer as a person wants to see it: songs with their waveform and a player,
 * videos in a player, images (QR art, covers), search results as links, a card's fields as a
 * list; the JSON itself one click away.
 */
import { AudioWithWaveform } from './waveform';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Media {
  kind: 'audio' | 'video' | 'image';
  url: string;
  title: string;
}

const MEDIA: Record<string, Media['kind']> = {
  audio_url: 'audio',
  video_url: 'video',
  image_url: 'image',
  image_large_url: 'image',
  cover_image_url: 'image',
};

function mediaIn(value: Json, title = 'result', found: Media[] = []): Media[] {
  if (Array.isArray(value)) value.forEach((item) => mediaIn(item, title, found));
  else if (value && typeof value === 'object') {
    const name = typeof value.title === 'string' && value.title ? value.title : title;
    for (const [key, item] of Object.entries(value)) {
      const kind = MEDIA[key];
      if (
        kind &&
        typeof item === 'string' &&
        /^(https?:|\/)/.test(item) &&
        !found.some((m) => m.url === item)
      )
        found.push({ kind, url: item, title: name });
      else if (key !== 'request') mediaIn(item, name, found);
    }
  }
  return found;
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
  const media = mediaIn(json);
  const organic =
    json && typeof json === 'object' && !Array.isArray(json) && Array.isArray(json.organic)
      ? (json.organic as Organic[])
      : null;
  const isIdentity =
    json &&
    typeof json === 'object' &&
    !Array.isArray(json) &&
    ('words_result' in json || 'id_number' in json);
  const fields = isIdentity ? fieldsOf(json) : [];
  return (
    <div class="result">
      {media.map((m) =>
        m.kind === 'audio' ? (
          <AudioWithWaveform key={m.url} url={m.url} title={m.title} />
        ) : m.kind === 'video' ? (
          <video key={m.url} controls preload="metadata" src={m.url} aria-label={`Video: ${m.title}`} />
        ) : (
          <img key={m.url} src={m.url} alt={`Image: ${m.title}`} class="result-image" />
        ),
      )}
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
