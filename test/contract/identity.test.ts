import { describe } from 'vitest';
import { idcardCheck, idcardOcr } from '../../src/contract/identity.js';
import { invalid, valid } from './cases/identity.js';
import { checkCases } from './check-cases.js';

describe('identity contract', () => checkCases([idcardCheck, idcardOcr], invalid, valid));
