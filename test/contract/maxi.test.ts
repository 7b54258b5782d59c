import { describe } from 'vitest';
import { maxi } from '../../src/contract/maxi.js';
import { invalid, valid } from './cases/maxi.js';
import { checkCases } from './check-cases.js';

describe('/maxi/videos contract', () => checkCases([maxi], invalid, valid));
