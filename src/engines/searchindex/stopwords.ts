/**
 * Stop words per language, dropped from queries (not from the index, so phrases that contain
 * them still match). A query made only of stop words keeps them, so "the who" still searches.
 * Only English so far; add a language by adding a list.
 */
const ENGLISH = `a about above after again against all also am an and any are as at be because been
before being below between both but by can could did do does doing down during each few for from
further had has have having he her here hers him his how i if in into is it its itself just me
more most my no nor not of off on once only or other our out over own same she should so some such
than that the their them then there these they this those through to too under until up very was
we were what when where which while who whom why will with would you your`;

export const STOP_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: new Set(ENGLISH.split(/\s+/)),
};

export function stopWordsFor(language: string | undefined): ReadonlySet<string> {
  return STOP_WORDS[language ?? 'en'] ?? STOP_WORDS.en ?? new Set();
}
