/**
 * Responses whose body is already bytes: the bytes are sent as they are, the body reads as its value, and nothing
 * of the kept bytes shows on (or travels with) a copy of the response.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { encodeResponse, hasEncodedBody, isFromKeptBytes, responseFromBytes, withEncodedBody } from '../../src/core/encode.js';

const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

it('a response from bytes sends them, and reads its body from them once, on first use', () => {
  const bytes = bytesOf({ a: 1 });
  let decoded = 0;
  const response = responseFromBytes(200, { 'Content-Type': 'application/json' }, bytes, () => (decoded += 1, { a: 1 }), false);
  assert.equal(encodeResponse(response).body, bytes);
  assert.equal(decoded, 0);
  assert.deepEqual(response.body, { a: 1 });
  assert.equal(response.body, response.body);
  assert.equal(decoded, 1);
  assert.equal(hasEncodedBody(response), true);
  assert.equal(isFromKeptBytes(response), false);
  assert.equal(isFromKeptBytes(responseFromBytes(200, {}, bytes, () => null)), true);
});

it('nothing of the bytes shows on the response or travels with a copy; a body replaced is encoded anew', () => {
  const response = responseFromBytes(200, {}, bytesOf([1]), () => [1]);
  assert.deepEqual(Reflect.ownKeys(response), ['status', 'headers', 'body']);
  assert.deepEqual(response, { status: 200, headers: {}, body: [1] });
  const copy = { ...response };
  assert.equal(hasEncodedBody(copy), false);
  assert.deepEqual(encodeResponse(copy).body, bytesOf([1]));
  const replaced = withEncodedBody({ status: 200, headers: {}, body: 'old' as unknown }, bytesOf('old'));
  replaced.body = 'new';
  assert.deepEqual(encodeResponse(replaced).body, bytesOf('new'));
  assert.deepEqual(Reflect.ownKeys(replaced), ['status', 'headers', 'body']);
});
