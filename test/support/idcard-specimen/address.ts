/**
 * Addresses as the card prints them: the division names (province, city, county, leaving out the
 * statistical "市辖区" of municipalities and a city that is its own county), then a street and
 * number in a town or a village in the countryside, 10 to 33 characters in all (three lines).
 */
import { pick, type Random } from '../../../src/engines/random.js';
import { countyCodes, regionOf } from '../../../src/engines/idcard/regions.js';

const SHORTEST = 10;
const LONGEST = 33;
/** Leaves room for at least a short street part within LONGEST. */
const LONGEST_DIVISION = 22;

const STREET_WORDS = [
  ...['建国', '人民', '解放', '中山', '和平', '胜利', '长江', '黄河', '新华', '文化', '东风', '光明'],
  ...['朝阳', '幸福', '团结', '友谊', '青年', '建设', '工农', '红旗', '延安', '花园', '滨江', '学府'],
  ...['迎宾', '振兴', '复兴', '金山', '南湖', '北海', '西湖', '东方', '长安', '平安', '兴业', '明珠'],
];
const STREET_KINDS = ['路', '路', '街', '大街', '大道', '巷'];
const PLACE_FIRST = [...'王李张刘陈杨黄赵周吴大小东西南北上下前后新老石柳桃花青白马龙凤金高'];
const PLACE_SECOND = [...'庄家湾桥河沟坪岗营店集寨坝园山塘屯堡'];
const GROUP_NUMBERS = [...'一二三四五六七八九'];

/** The names before the street: 北京市朝阳区, 河北省石家庄市长安区, 广东省东莞市. */
export function divisionPrefix(code6: string): string | undefined {
  const region = regionOf(code6);
  if (region === undefined) return undefined;
  const { province, city, county } = region;
  const cityPrinted =
    city !== undefined && city !== '市辖区' && city !== '县' && !city.endsWith('直辖县级行政区划');
  if (!cityPrinted) return province + county;
  return county === city ? province + city : province + city + county;
}

let printable: readonly string[] | undefined;

/**
 * Counties a card can name: the bureau's development-zone codes (70 and above) never open an ID
 * number, and names too long to leave room for a street are left out.
 */
export function printableCounties(): readonly string[] {
  printable ??= countyCodes().filter(
    (code) => Number(code.slice(4)) < 70 && (divisionPrefix(code)?.length ?? LONGEST) <= LONGEST_DIVISION,
  );
  return printable;
}

const between = (random: Random, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const placeName = (random: Random) => pick(random, PLACE_FIRST) + pick(random, PLACE_SECOND);

/** A street and house number; the longer form adds a building, entrance and flat. */
function streetPart(random: Random): { short: string; long: string } {
  const street = pick(random, STREET_WORDS) + pick(random, STREET_KINDS) + `${between(random, 1, 299)}号`;
  const flat =
    random() < 0.5
      ? `${between(random, 1, 30)}号楼${between(random, 1, 6)}单元${between(random, 1, 18)}0${between(random, 1, 4)}`
      : `${between(random, 1, 20)}栋${between(random, 1, 30)}0${between(random, 1, 6)}室`;
  return { short: street, long: street + flat };
}

/** A town or township, a village and a house number; the longer form names the production group. */
function villagePart(random: Random): { short: string; long: string } {
  const place = placeName(random) + (random() < 0.7 ? '镇' : '乡') + placeName(random) + '村';
  const group = `${pick(random, GROUP_NUMBERS)}组`;
  const number = `${between(random, 1, 99)}号`;
  return { short: place + number, long: place + group + number };
}

/** A full address in the county; the longer form where it fits and the seed asks for it. */
export function addressIn(random: Random, code6: string): string {
  const division = divisionPrefix(code6);
  if (division === undefined) throw new RangeError(`no county ${code6} in the division table`);
  const rural = /[县旗]$/.test(division) ? random() < 0.7 : random() < 0.2;
  const { short, long } = rural ? villagePart(random) : streetPart(random);
  const fits = (division + long).length <= LONGEST;
  return fits && (random() < 0.4 || (division + short).length < SHORTEST)
    ? division + long
    : division + short;
}
