// Writes the sample ID card of the README into examples/idcard/: card.jpg, portrait.png and the
// request bodies check-1e.json and ocr.json (see test/support/idcard-example.ts).
// Usage: npx tsx scripts/make-idcard-example.ts
import { writeExample } from '../test/support/idcard-example.js';

for (const [name, bytes] of Object.entries(writeExample()))
  process.stdout.write(`examples/idcard/${name}  ${(bytes / 1024).toFixed(1)} KB\n`);
