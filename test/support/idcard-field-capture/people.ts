/**
 * Fictional holders: a name in the naming tradition of the holder's nationality, sex, birth
 * date, an address in the registering region and the GB 11643 number all of these give.
 */
import { hashOf, pick, seeded, type Random } from '../../../src/engines/random.js';
import { identityNumber } from './gb11643.js';
import { NATIONS } from './nations.js';
import { REGIONS, type Region } from './regions.js';

export interface Holder {
  name: string;
  sex: '男' | '女';
  nation: string;
  /** YYYY-MM-DD. */
  birth: string;
  /** The address as one string; the card breaks it into lines. */
  address: string;
  idNumber: string;
  /** Who the face is: the same face seed draws the same person in every photo. */
  faceSeed: number;
}

const SURNAMES = [
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤',
];
const COMPOUND_SURNAMES = ['欧阳', '司马', '上官', '诸葛', '东方', '慕容'];
const GIVEN = {
  男: [...'伟强磊军勇杰涛明超刚平辉鹏华飞鑫波斌宇浩凯健俊帆帅旭宁龙林阳峰建国志远文博海洋晨'],
  女: [...'芳娜敏静丽艳娟霞秀玲燕红梅琳雪婷慧颖倩洁佳莉萍琴云月兰凤菊晶瑶欣怡悦薇蕾嘉璐'],
};

/** Names of the Turkic and Tajik traditions: own name · father's name, as transliterated on cards. */
const TURKIC = {
  男: [
    '买买提',
    '艾力',
    '阿不都热合曼',
    '吐尔逊',
    '努尔兰',
    '艾合买提',
    '热合木',
    '阿迪力',
    '帕尔哈提',
    '叶尔兰',
  ],
  女: [
    '古丽娜尔',
    '阿依努尔',
    '热依汗',
    '帕提古丽',
    '迪丽拜尔',
    '阿娜尔',
    '玛依拉',
    '努尔古丽',
    '再努尔',
    '阿依古丽',
  ],
  father: ['买买提', '吐尔逊', '艾山', '库尔班', '阿不力孜', '哈斯木', '别克', '肉孜', '沙吾提', '依明'],
};
/** Tibetan names: two two-syllable names, no surname. */
const TIBETAN = {
  男: ['扎西', '次仁', '多吉', '顿珠', '旺堆', '格桑', '平措', '尼玛', '达瓦', '索朗'],
  女: ['卓玛', '央金', '拉姆', '次仁', '德吉', '曲珍', '格桑', '白玛', '央宗', '普布'],
};
/** Mongolian names: one name, often of three or four syllables. */
const MONGOLIAN = {
  男: ['巴特尔', '额尔敦', '苏和', '朝鲁', '宝音', '那日苏', '孟和', '哈斯巴根', '特木尔', '阿拉坦仓'],
  女: ['其其格', '乌云娜', '萨仁', '斯琴', '娜仁花', '塔娜', '高娃', '乌兰', '图雅', '阿拉坦其木格'],
};
/** Nuosu names written in characters: clan name then own name. */
const YI = {
  clans: ['吉克', '阿苏', '沙马', '阿尔', '俄木', '马海', '海来'],
  男: ['木呷', '拉哈', '尔布', '石者', '伍沙'],
  女: ['阿依', '伍各', '阿呷', '日莫', '史色'],
};

const TURKIC_NATIONS = new Set(['维吾尔', '哈萨克', '柯尔克孜', '塔吉克', '乌孜别克', '塔塔尔']);
const TIBETAN_NATIONS = new Set(['藏', '门巴', '珞巴']);
const MONGOLIAN_NATIONS = new Set(['蒙古', '达斡尔', '鄂温克', '鄂伦春']);

function nameOf(random: Random, nation: string, sex: '男' | '女'): string {
  if (TURKIC_NATIONS.has(nation)) return `${pick(random, TURKIC[sex])}·${pick(random, TURKIC.father)}`;
  if (TIBETAN_NATIONS.has(nation)) {
    const first = pick(random, TIBETAN[sex]);
    const second = pick(
      random,
      TIBETAN[sex].filter((n) => n !== first),
    );
    return random() < 0.5 ? first + second : first;
  }
  if (MONGOLIAN_NATIONS.has(nation)) return pick(random, MONGOLIAN[sex]);
  if (nation === '彝' && random() < 0.6) return pick(random, YI.clans) + pick(random, YI[sex]);
  const surname = random() < 0.03 ? pick(random, COMPOUND_SURNAMES) : pick(random, SURNAMES);
  const given = Array.from({ length: random() < 0.7 ? 2 : 1 }, () => pick(random, GIVEN[sex])).join('');
  return surname + given;
}

function birthOf(random: Random): string {
  const year = 1940 + Math.floor(random() * 66);
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * new Date(Date.UTC(year, month, 0)).getUTCDate());
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const NUMERALS = '一二三四五六七八九十';

function addressOf(random: Random, region: Region): string {
  const place = pick(random, region.places);
  const rest = [
    () => `${1 + Math.floor(random() * 300)}号`,
    () =>
      `${1 + Math.floor(random() * 40)}号院${1 + Math.floor(random() * 12)}号楼${1 + Math.floor(random() * 6)}单元${101 + Math.floor(random() * 1800)}号`,
    () => `${pick(random, [...NUMERALS])}组${1 + Math.floor(random() * 90)}号`,
    () => `${1 + Math.floor(random() * 200)}号附${1 + Math.floor(random() * 9)}号`,
  ];
  return region.prefix + place + pick(random, rest)();
}

/** Holders of every nationality: about half Han, the rest spread over the other 55. */
export function fictionalHolder(seed: number, nation?: string): Holder {
  const random = seeded(hashOf('field capture holder', seed));
  const drawnNation = random() < 0.5 ? '汉' : pick(random, NATIONS.slice(1));
  const chosen = nation ?? drawnNation;
  const sex = random() < 0.5 ? '男' : '女';
  const home = REGIONS.filter((r) => r.nations.includes(chosen));
  const region = pick(random, home.length > 0 && random() < 0.85 ? home : REGIONS);
  const birth = birthOf(random);
  const name = nameOf(random, chosen, sex);
  const address = addressOf(random, region);
  const idNumber = identityNumber(region.code, birth, 1 + Math.floor(random() * 998), sex);
  return { name, sex, nation: chosen, birth, address, idNumber, faceSeed: hashOf('face', seed) };
}
