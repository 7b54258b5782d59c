import type { InvalidCase, ValidCase } from './types.js';

const check = '/identity/idcard/check-1e';
const ocr = '/identity/idcard/ocr';

const image = 'https://cards.example/front.jpg';
const card = { name: '张三', id_card: '11010519491231002X', image_url: image };
const ciphertext = 'q'.repeat(88);
const encryptedBoth = {
  encrypt_list: ['name', 'id_card'],
  algorithm: 'SM4-GCM',
  iv: 'aXZpdml2aXZpdml2',
  tag_list: ['dGFnMQ==', 'dGFnMg=='],
  ciphertext_blob: 1,
};
const withEncryption = (item: Record<string, unknown>) => ({
  ...card,
  encryption: [{ ...encryptedBoth, ...item }],
});

const checkCases: InvalidCase[] = [
  { path: check, name: 'image_url missing', body: {}, field: 'image_url' },
  { path: check, name: 'image_url empty', body: { image_url: '' }, field: 'image_url' },
  {
    path: check,
    name: 'image_url not http(s) or data',
    body: { image_url: 'file:///etc/passwd' },
    field: 'image_url',
  },
  { path: check, name: 'member unknown', body: { image_url: image, imageurl: image }, field: 'imageurl' },
  { path: check, name: 'config a number', body: { image_url: image, config: 1 }, field: 'config' },
  {
    path: check,
    name: 'config not JSON',
    body: { image_url: image, config: '{copy_warn: true}' },
    field: 'config',
  },
  {
    path: check,
    name: 'config JSON of an array',
    body: { image_url: image, config: '[true]' },
    field: 'config',
  },
  {
    path: check,
    name: 'config flag unknown',
    body: { image_url: image, config: { blur_warn: true } },
    field: 'config.blur_warn',
  },
  {
    path: check,
    name: 'config flag unknown, as a string',
    body: { image_url: image, config: '{"blur_warn": true}' },
    field: 'config.blur_warn',
  },
  {
    path: check,
    name: 'config flag not boolean, as a string',
    body: { image_url: image, config: '{"quality": "yes"}' },
    field: 'config.quality',
  },
];

const ocrCases: InvalidCase[] = [
  { path: ocr, name: 'name missing', body: { ...card, name: undefined }, field: 'name' },
  { path: ocr, name: 'id_card missing', body: { ...card, id_card: undefined }, field: 'id_card' },
  { path: ocr, name: 'image_url missing', body: { ...card, image_url: undefined }, field: 'image_url' },
  { path: ocr, name: 'image_url not a URL', body: { ...card, image_url: 'front.jpg' }, field: 'image_url' },
  { path: ocr, name: 'member unknown', body: { ...card, sex: 'M' }, field: 'sex' },
  { path: ocr, name: 'name empty', body: { ...card, name: '' }, field: 'name' },
  { path: ocr, name: 'name only spaces', body: { ...card, name: '   ' }, field: 'name' },
  { path: ocr, name: 'name over 64 characters', body: { ...card, name: '张'.repeat(65) }, field: 'name' },
  { path: ocr, name: 'id_card a number', body: { ...card, id_card: 110105194912310020 }, field: 'id_card' },
  {
    path: ocr,
    name: 'id_card 17 characters',
    body: { ...card, id_card: '11010519491231002' },
    field: 'id_card',
  },
  {
    path: ocr,
    name: 'id_card letter inside',
    body: { ...card, id_card: '1101051949X231002X' },
    field: 'id_card',
  },
  {
    path: ocr,
    name: 'id_card ends in Y',
    body: { ...card, id_card: '11010519491231002Y' },
    field: 'id_card',
  },
  {
    path: ocr,
    name: 'id_card plain while only name is encrypted',
    body: { ...withEncryption({ encrypt_list: ['name'] }), name: ciphertext, id_card: ciphertext },
    field: 'id_card',
  },
  {
    path: ocr,
    name: 'encryption not an array',
    body: { ...card, encryption: encryptedBoth },
    field: 'encryption',
  },
  { path: ocr, name: 'encryption empty', body: { ...card, encryption: [] }, field: 'encryption' },
  {
    path: ocr,
    name: 'encryption without iv',
    body: withEncryption({ iv: undefined }),
    field: 'encryption[0].iv',
  },
  {
    path: ocr,
    name: 'encrypt_list names another field',
    body: withEncryption({ encrypt_list: ['image_url'] }),
    field: 'encryption[0].encrypt_list[0]',
  },
  {
    path: ocr,
    name: 'ciphertext_blob a string',
    body: withEncryption({ ciphertext_blob: 'abc' }),
    field: 'encryption[0].ciphertext_blob',
  },
  {
    path: ocr,
    name: 'tag_list item not a string',
    body: withEncryption({ tag_list: [1] }),
    field: 'encryption[0].tag_list[0]',
  },
  {
    path: ocr,
    name: 'encryption member unknown',
    body: withEncryption({ key: 'k' }),
    field: 'encryption[0].key',
  },
  {
    path: ocr,
    name: 'ciphertext over 4096 characters',
    body: { ...withEncryption({}), name: 'q'.repeat(4097) },
    field: 'name',
  },
];

export const invalid: InvalidCase[] = [...checkCases, ...ocrCases];

export const valid: ValidCase[] = [
  { path: check, name: 'image only', body: { image_url: image } },
  {
    path: check,
    name: 'image as a data URL',
    body: { image_url: 'data:image/jpeg;base64,/9j/4AAQSkZJRg==' },
  },
  {
    path: check,
    name: 'every flag, as an object',
    body: {
      image_url: image,
      config: {
        copy_warn: true,
        border_check_warn: true,
        reshoot_warn: true,
        detect_ps_warn: true,
        temp_id_warn: true,
        quality: true,
      },
    },
  },
  {
    path: check,
    name: 'flags as a JSON string',
    body: { image_url: image, config: '{"copy_warn":true,"quality":false}' },
  },
  { path: ocr, name: 'full plain body', body: card },
  { path: ocr, name: 'lower-case x', body: { ...card, id_card: '11010519491231002x' } },
  {
    path: ocr,
    name: 'wrong check digit (a business result)',
    body: { ...card, id_card: '110105194912310021' },
  },
  {
    path: ocr,
    name: 'both members encrypted',
    body: { ...withEncryption({}), name: ciphertext, id_card: ciphertext },
  },
  {
    path: ocr,
    name: 'name encrypted, CBC without tags',
    body: {
      ...card,
      name: ciphertext,
      encryption: [{ encrypt_list: ['name'], algorithm: 'AES-256-CBC', iv: 'aXY=', ciphertext_blob: 2 }],
    },
  },
];
