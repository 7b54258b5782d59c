/**
 * Registering regions: a real GB/T 2260 county-level code, the address as a card writes its
 * start, and the nationalities whose holders are most often registered there (a holder of
 * another nationality may be registered anywhere).
 */
export interface Region {
  code: string;
  prefix: string;
  /** Streets or villages of the place, for the rest of the address. */
  places: readonly string[];
  nations: readonly string[];
}

export const REGIONS: readonly Region[] = [
  {
    code: '110105',
    prefix: '北京市朝阳区',
    places: ['望京西园', '团结湖北里', '劲松南路'],
    nations: ['汉', '满', '回'],
  },
  { code: '310104', prefix: '上海市徐汇区', places: ['漕溪北路', '田林东路', '宛平南路'], nations: ['汉'] },
  {
    code: '440106',
    prefix: '广东省广州市天河区',
    places: ['天河北路', '石牌东路', '员村二横路'],
    nations: ['汉', '瑶'],
  },
  {
    code: '330106',
    prefix: '浙江省杭州市西湖区',
    places: ['文三路', '古荡新村', '转塘街道'],
    nations: ['汉', '畲'],
  },
  {
    code: '510107',
    prefix: '四川省成都市武侯区',
    places: ['玉林北路', '浆洗街', '簇桥乡'],
    nations: ['汉', '羌', '彝', '藏'],
  },
  {
    code: '420106',
    prefix: '湖北省武汉市武昌区',
    places: ['中南二路', '积玉桥', '首义路'],
    nations: ['汉', '土家'],
  },
  {
    code: '610113',
    prefix: '陕西省西安市雁塔区',
    places: ['小寨东路', '电子二路', '长延堡街道'],
    nations: ['汉', '回'],
  },
  {
    code: '370102',
    prefix: '山东省济南市历下区',
    places: ['泉城路', '燕子山小区', '文化东路'],
    nations: ['汉'],
  },
  {
    code: '230103',
    prefix: '黑龙江省哈尔滨市南岗区',
    places: ['西大直街', '和兴路', '学府路'],
    nations: ['汉', '满', '鄂伦春', '赫哲', '达斡尔', '朝鲜', '鄂温克', '俄罗斯'],
  },
  {
    code: '222401',
    prefix: '吉林省延边朝鲜族自治州延吉市',
    places: ['河南街', '光明街', '公园路'],
    nations: ['朝鲜', '汉'],
  },
  {
    code: '150102',
    prefix: '内蒙古自治区呼和浩特市新城区',
    places: ['锡林南路', '成吉思汗大街', '海拉尔东路'],
    nations: ['蒙古', '汉', '达斡尔', '鄂温克', '鄂伦春'],
  },
  {
    code: '650102',
    prefix: '新疆维吾尔自治区乌鲁木齐市天山区',
    places: ['解放南路', '二道桥', '新华南路'],
    nations: ['维吾尔', '汉', '哈萨克', '回', '柯尔克孜', '塔吉克', '乌孜别克', '塔塔尔', '锡伯', '俄罗斯'],
  },
  {
    code: '653101',
    prefix: '新疆维吾尔自治区喀什市',
    places: ['吾斯塘博依路', '艾提尕尔', '浩罕乡'],
    nations: ['维吾尔', '塔吉克', '柯尔克孜', '乌孜别克'],
  },
  {
    code: '540102',
    prefix: '西藏自治区拉萨市城关区',
    places: ['八廓街', '娘热路', '夺底乡'],
    nations: ['藏', '门巴', '珞巴', '回'],
  },
  {
    code: '630102',
    prefix: '青海省西宁市城东区',
    places: ['东关大街', '八一路', '韵家口镇'],
    nations: ['回', '撒拉', '土', '藏', '汉'],
  },
  {
    code: '640104',
    prefix: '宁夏回族自治区银川市兴庆区',
    places: ['解放东街', '丽景街', '掌政镇'],
    nations: ['回', '汉'],
  },
  {
    code: '620102',
    prefix: '甘肃省兰州市城关区',
    places: ['庆阳路', '雁滩路', '皋兰路'],
    nations: ['汉', '东乡', '保安', '裕固', '回'],
  },
  {
    code: '530102',
    prefix: '云南省昆明市五华区',
    places: ['青年路', '普吉街道', '红云社区'],
    nations: [
      '彝',
      '白',
      '哈尼',
      '傣',
      '傈僳',
      '佤',
      '拉祜',
      '纳西',
      '景颇',
      '布朗',
      '阿昌',
      '普米',
      '怒',
      '德昂',
      '独龙',
      '基诺',
      '汉',
    ],
  },
  {
    code: '532801',
    prefix: '云南省西双版纳傣族自治州景洪市',
    places: ['嘎兰中路', '曼听村', '勐罕镇'],
    nations: ['傣', '哈尼', '基诺', '布朗', '拉祜'],
  },
  {
    code: '520102',
    prefix: '贵州省贵阳市南明区',
    places: ['都司路', '花果园', '五里冲'],
    nations: ['苗', '布依', '侗', '水', '仡佬', '汉'],
  },
  {
    code: '450103',
    prefix: '广西壮族自治区南宁市青秀区',
    places: ['民族大道', '东葛路', '长塘镇'],
    nations: ['壮', '瑶', '仫佬', '毛南', '京', '汉'],
  },
  {
    code: '460105',
    prefix: '海南省海口市秀英区',
    places: ['长滨路', '海秀镇', '西秀镇'],
    nations: ['黎', '汉'],
  },
  {
    code: '350102',
    prefix: '福建省福州市鼓楼区',
    places: ['五四路', '杨桥中路', '洪山镇'],
    nations: ['汉', '畲', '高山'],
  },
  {
    code: '431202',
    prefix: '湖南省怀化市鹤城区',
    places: ['迎丰中路', '红星路', '盈口乡'],
    nations: ['侗', '苗', '土家', '瑶'],
  },
  {
    code: '210102',
    prefix: '辽宁省沈阳市和平区',
    places: ['南京北街', '三好街', '北市场'],
    nations: ['汉', '满', '锡伯', '朝鲜'],
  },
];
