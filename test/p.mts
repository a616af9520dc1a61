import { verifyApplicationPassword } from '../src/auth/app-passwords.ts';
const t = Date.now();
await verifyApplicationPassword('abc', 'scrypt$1048576$32$16$' + Buffer.alloc(16).toString('base64url') + '$' + Buffer.alloc(32).toString('base64url')).then((v) => console.log('resolved', v), (e) => console.log('rejected', e.code));
console.log(Date.now() - t);
