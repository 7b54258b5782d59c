import { describe } from 'vitest';
import { serp } from '../../src/contract/serp.js';
import { invalid, valid } from './cases/serp.js';
import { checkCases } from './check-cases.js';

describe('/serp/web contract', () => checkCases([serp], invalid, valid));
