/**
 * Fictional card holders: a name, sex, nation, date of birth, an address inside a real county of
 * the division table, and an ID number that agrees with all of them (region, birth, sex parity
 * and check digit). Nobody here exists; the same seed always gives the same person.
 */
import { hashOf, pick, seeded, type Random } from '../../../src/engines/random.js';
import { checkDigit, type Sex } from '../../../src/engines/idcard/id-number.js';
import { NATIONS } from '../../../src/engines/idcard/nations.js';
import { addressIn, printableCounties } from './address.js';

export interface Person {
  name: string;
  sex: Sex;
  nation: string;
  /** YYYY-MM-DD. */
  birth: string;
  address: string;
  idNumber: string;
  /** Chooses the face in the printed photo (see drawPortrait). */
  portraitSeed: number;
}

/** The commonest surnames first, so that picking the first half more often mirrors real counts. */
const SURNAMES = [
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤',
];
const DOUBLE_SURNAMES = ['欧阳', '司马', '诸葛', '上官', '东方', '皇甫', '慕容', '司徒'];

const GIVEN_MALE = [
  ...'伟强磊军勇杰涛斌超明刚平辉鹏飞鑫波宇浩凯健俊帆旭宁龙林阳建国志海东峰成亮正永兵锋博文华',
];
const GIVEN_FEMALE = [...'芳娜敏静丽艳娟霞秀玲桂英萍燕红梅莉兰琳婷雪慧洁颖倩欣悦佳晶蕾薇雯琴月凤珍璐'];
const GIVEN_EITHER = [...'子思晓嘉雨一天春晨新云中金玉小安'];

const EARLIEST_BIRTH = Date.UTC(1940, 0, 1);
const LATEST_BIRTH = Date.UTC(2008, 11, 31);
const DAY = 86_400_000;

function nameOf(random: Random, sex: Sex): string {
  const surname = random() < 0.04 ? pick(random, DOUBLE_SURNAMES) : pickSkewed(random, SURNAMES);
  const own = sex === '男' ? GIVEN_MALE : GIVEN_FEMALE;
  const given = () => (random() < 0.75 ? pick(random, own) : pick(random, GIVEN_EITHER));
  const length = random() < 0.35 ? 1 : 2;
  let name = surname;
  for (let i = 0; i < length; i++) name += given();
  return name;
}

/** Leans towards the front of the list: the square of a uniform number. */
function pickSkewed<T>(random: Random, items: readonly T[]): T {
  const u = random();
  return items[Math.floor(u * u * items.length)]!;
}

function nationOf(random: Random): string {
  // Nine in ten cardholders are Han.
  return random() < 0.9 ? '汉' : pick(random, NATIONS.slice(1));
}

function birthOf(random: Random): string {
  const days = Math.floor(random() * ((LATEST_BIRTH - EARLIEST_BIRTH) / DAY + 1));
  return new Date(EARLIEST_BIRTH + days * DAY).toISOString().slice(0, 10);
}

/** A 3-digit sequence whose last digit is odd for a man and even for a woman. */
function sequenceOf(random: Random, sex: Sex): string {
  const tens = Math.floor(random() * 100);
  const unit = 2 * Math.floor(random() * 5) + (sex === '男' ? 1 : 0);
  return String(tens * 10 + unit).padStart(3, '0');
}

export function fictionalPerson(seed: number): Person {
  const random = seeded(hashOf('person', seed));
  const sex: Sex = random() < 0.5 ? '男' : '女';
  const name = nameOf(random, sex);
  const nation = nationOf(random);
  const birth = birthOf(random);
  const county = pick(random, printableCounties());
  const address = addressIn(random, county);
  const first17 = county + birth.replaceAll('-', '') + sequenceOf(random, sex);
  return {
    name,
    sex,
    nation,
    birth,
    address,
    idNumber: first17 + checkDigit(first17),
    portraitSeed: Math.floor(random() * 2 ** 31),
  };
}
