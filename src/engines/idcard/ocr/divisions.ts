/**
 * The division names an address opens with (省, 市, 县/区), corrected against the division table:
 * they are real names, often with rare characters a recogniser misreads (罗平具 for 罗平县, 嘉末
 * for 嘉禾). The part of the address that is closest to a printed division name is replaced by
 * it when it is close enough and no other name is as close; the rest of the address is as read.
 */
import { countyCodes, regionOf } from '../regions.js';

/** Statistical city names a card does not print. */
const UNPRINTED_CITY = /^(市辖区|县)$|直辖县级行政区划$/;

let prefixes: readonly string[] | undefined;

/** The division names as cards print them before the street: 北京市朝阳区, 河北省石家庄市长安区, 广东省东莞市. */
function printedPrefixes(): readonly string[] {
  prefixes ??= [
    ...new Set(
      countyCodes().flatMap((code) => {
        const region = regionOf(code);
        if (!region) return [];
        const { province, city, county } = region;
        if (city === undefined || UNPRINTED_CITY.test(city)) return [province + county];
        return county === city ? [province + city] : [province + city + county];
      }),
    ),
  ];
  return prefixes;
}

/** The smallest edit distance between `prefix` and a beginning of `text`, and the length of that beginning. */
function openingDistance(
  prefix: readonly string[],
  text: readonly string[],
  limit: number,
): { distance: number; length: number } {
  let previous = Array.from({ length: text.length + 1 }, (_, j) => j);
  for (let i = 1; i <= prefix.length; i++) {
    const current = [i];
    for (let j = 1; j <= text.length; j++)
      current.push(
        Math.min(
          previous[j]! + 1,
          current[j - 1]! + 1,
          previous[j - 1]! + (prefix[i - 1] === text[j - 1] ? 0 : 1),
        ),
      );
    // Distances never shrink down the table: past the limit everywhere, past it at the end.
    if (Math.min(...current) > limit) return { distance: Infinity, length: 0 };
    previous = current;
  }
  // Among equally close beginnings, the one as long as the name: a misread character, not a lost one.
  let best = { distance: Infinity, length: 0 };
  previous.forEach((distance, length) => {
    const nearer = Math.abs(length - prefix.length) < Math.abs(best.length - prefix.length);
    if (distance < best.distance || (distance === best.distance && nearer)) best = { distance, length };
  });
  return best;
}

/**
 * `address` with its opening division names corrected, when one printed name is closest. Names
 * equally close (涅中区: 湟中区 or 城中区?) are told apart by the other readings of the address
 * (`alternatives`, one per view): the name they are closest to in all wins.
 */
export function correctDivisions(address: string, alternatives: readonly string[] = []): string {
  const text = [...address];
  const matches: { prefix: string; size: number; distance: number; length: number }[] = [];
  for (const prefix of printedPrefixes()) {
    const chars = [...prefix];
    // One misread character in five at most: more and the name is a guess.
    const limit = Math.floor(chars.length / 5);
    const match = openingDistance(chars, text.slice(0, chars.length + 3), limit);
    if (match.distance <= limit) matches.push({ prefix, size: chars.length, ...match });
  }
  // Closest first; at the same distance the longer name, which matched more of the address.
  matches.sort((a, b) => a.distance - b.distance || b.size - a.size);
  const [first] = matches;
  if (!first || first.distance === 0) return address;
  const tied = matches.filter((m) => m.distance === first.distance && m.size === first.size);
  const support = (prefix: string) =>
    alternatives.reduce((sum, alt) => sum + openingDistance([...prefix], [...alt], Infinity).distance, 0);
  const ranked = tied
    .map((m) => ({ ...m, support: support(m.prefix) }))
    .sort((a, b) => a.support - b.support);
  const [best, next] = ranked;
  if (next && next.support === best!.support) return address;
  return best!.prefix + text.slice(best!.length).join('');
}
