import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import S3rver from 's3rver';
import { run, serve } from './helpers.js';
import { alike, answerQuizElsewhere, password, PROCESSES, startTogether, stopAll, uploadTheSameNameEverywhere } from './multiprocess.js';

/** Several `quire serve` processes on one SQLite file, started together, with files on disk or in a bucket. */
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

let folder: string;
let s3: S3rver;
let endpoint: string;

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'quire-multiprocess-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(folder, 's3'), configureBuckets: [{ name: 'shared', configs: [] }] });
  endpoint = `http://127.0.0.1:${((await s3.run()) as AddressInfo).port}`;
});

after(async () => {
  await s3.close();
  await rm(folder, { recursive: true, force: true });
});

describe('several quire serve processes on one store', () => {
  test('start together on a new database: one makes the administrator and prints its password, all serve', async () => {
    const data = join(folder, 'fresh.db');
    const processes = await startTogether(alike(['--data', data]));
    try {
      const statuses = await Promise.all(processes.map(async ({ apiUrl }) => (await fetch(apiUrl)).status));
      assert.deepEqual(statuses, Array(PROCESSES).fill(200));
    } finally {
      await stopAll(processes);
    }
    const announced = (await Promise.all(processes.map(({ finished }) => finished)))
      .filter(({ stdout }) => /^quire application password \(shown once; keep it\): /m.test(stdout));
    assert.equal(announced.length, 1);
  });

  test('upload one file name at once with files on disk: every upload keeps its own file', async () => {
    const processes = await startTogether(alike(['--data', join(folder, 'disk.db'), '--admin-app-password', password]));
    try {
      await uploadTheSameNameEverywhere(processes);
      assert.equal(await answerQuizElsewhere(processes[0]!.apiUrl, processes[2]!.apiUrl), 'mail_sent');
    } finally {
      await stopAll(processes);
    }
  });

  test('a site secret given to each process signs what the others verify; a short one is refused', async () => {
    const secret = 'one secret for every process';
    const data = join(folder, 'secret.db');
    const [first, second] = await startTogether([
      () => serve(['--data', data, '--admin-app-password', password, '--secret', secret]),
      () => serve(['--data', data, '--admin-app-password', password], { QUIRE_SECRET: secret }),
    ]);
    try {
      assert.equal(await answerQuizElsewhere(first.apiUrl, second.apiUrl), 'mail_sent');
    } finally {
      await stopAll([first, second]);
    }
    const [other, stored] = await startTogether([
      () => serve(['--data', data, '--admin-app-password', password, '--secret', 'another secret, not shared']),
      () => serve(['--data', data, '--admin-app-password', password]),
    ]);
    try {
      assert.equal(await answerQuizElsewhere(other.apiUrl, stored.apiUrl), 'validation_failed');
    } finally {
      await stopAll([other, stored]);
    }
    const short = await run(['serve', '--storage', 'memory', '--secret', 'too short']).finished;
    assert.equal(short.code, 2);
    assert.match(short.stderr, /--secret needs at least 16 characters/);
  });

  test('upload one file name at once with files in a bucket: every upload keeps its own file', async () => {
    const environment = { AWS_ACCESS_KEY_ID: credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey };
    const blobs = `s3://shared?endpoint=${encodeURIComponent(endpoint)}&prefix=site/`;
    const processes = await startTogether(alike(['--data', join(folder, 'bucket.db'), '--blobs', blobs, '--admin-app-password', password], environment));
    try {
      await uploadTheSameNameEverywhere(processes);
    } finally {
      await stopAll(processes);
    }
  });
});
