import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFileType } from '../../src/media/files/check-type.js';
import { sanitizeFileName } from '../../src/media/files/file-name.js';
import { allowedMimeTypes, fileTypeOf, MIME_TYPES } from '../../src/format/mime-types.js';
import { sniffContent } from '../../src/media/files/sniff.js';
import { uniqueFileName } from '../../src/media/files/unique-name.js';
import { createMemoryBlobStore } from '../../src/storage/blobs/memory.js';
import { jpeg, png, quarters } from './helpers.js';

const text = (value: string) => new TextEncoder().encode(value);
const ALLOWED = allowedMimeTypes(false);

describe('allowed types', () => {
  it('follows the reference list, without executables, and HTML/JS only for unfiltered-HTML users', () => {
    assert.equal(fileTypeOf('photo.JPG', ALLOWED)?.type, 'image/jpeg');
    assert.equal(fileTypeOf('clip.m4v', ALLOWED)?.type, 'video/mp4');
    assert.equal(fileTypeOf('notes.srt', ALLOWED)?.type, 'text/plain');
    assert.equal(fileTypeOf('tool.exe', ALLOWED), null);
    assert.equal(fileTypeOf('movie.swf', ALLOWED), null);
    assert.equal(fileTypeOf('page.html', ALLOWED), null);
    assert.equal(fileTypeOf('app.js', ALLOWED), null);
    assert.equal(fileTypeOf('drawing.svg', ALLOWED), null);
    const unfiltered = allowedMimeTypes(true);
    assert.equal(fileTypeOf('page.html', unfiltered)?.type, 'text/html');
    assert.equal(fileTypeOf('tool.exe', unfiltered), null);
    assert.equal(fileTypeOf('README', MIME_TYPES), null);
  });
});

describe('sanitizeFileName', () => {
  it('turns spaces into dashes and drops special characters, keeping case', () => {
    assert.equal(sanitizeFileName('Big Photo.jpg'), 'Big-Photo.jpg');
    assert.equal(sanitizeFileName('a  b\tc.png'), 'a-b-c.png');
    assert.equal(sanitizeFileName('what?[x]=<y>;#1.gif'), 'whatxy1.gif');
    assert.equal(sanitizeFileName('Ünïcödé Straße.png'), 'Unicode-Strase.png');
  });

  it('cannot name a place outside its folder', () => {
    assert.equal(sanitizeFileName('../../etc/passwd.png'), 'etcpasswd.png');
    assert.equal(sanitizeFileName('..\\..\\windows\\win.ini.txt'), 'windowswin.ini_.txt');
    assert.equal(sanitizeFileName('/absolute/path.jpg'), 'absolutepath.jpg');
    assert.equal(sanitizeFileName('x\u0000y\u202egnp.exe.jpg').includes('\u0000'), false);
    assert.equal(sanitizeFileName('x\u202egnp.exe.jpg').includes('\u202e'), false);
  });

  it('defuses inner extensions that are not allowed types', () => {
    assert.equal(sanitizeFileName('shell.php.jpg', ALLOWED), 'shell.php_.jpg');
    assert.equal(sanitizeFileName('archive.tar.gz', ALLOWED), 'archive.tar.gz');
  });

  it('names a bare extension', () => {
    assert.equal(sanitizeFileName('jpg'), 'unnamed-file.jpg');
    assert.equal(sanitizeFileName('...png'), 'unnamed-file.png');
  });
});

describe('content sniffing', () => {
  it('recognises the common signatures', () => {
    assert.equal(sniffContent(png(quarters(4, 4))), 'image/png');
    assert.equal(sniffContent(jpeg(quarters(8, 8))), 'image/jpeg');
    assert.equal(sniffContent(text('GIF89a\x01\x00\x01\x00')), 'image/gif');
    assert.equal(sniffContent(text('RIFF\x00\x00\x00\x00WEBPVP8 ')), 'image/webp');
    assert.equal(sniffContent(text('RIFF\x00\x00\x00\x00WAVEfmt ')), 'wav');
    assert.equal(sniffContent(text('%PDF-1.7\n')), 'pdf');
    assert.equal(sniffContent(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0])), 'zip');
    assert.equal(sniffContent(text('ID3\x03\x00')), 'mp3');
    assert.equal(sniffContent(text('OggS\x00\x02')), 'ogg');
    assert.equal(sniffContent(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x01])), 'matroska');
    assert.equal(sniffContent(text('\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom')), 'iso-media');
    assert.equal(sniffContent(text('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic')), 'image/heic');
    assert.equal(sniffContent(text('MZ\x90\x00')), 'executable');
    assert.equal(sniffContent(text('<!DOCTYPE html><html>')), 'html');
    assert.equal(sniffContent(text('<?php echo 1;')), 'script');
    assert.equal(sniffContent(text('<svg xmlns="http://www.w3.org/2000/svg">')), 'svg');
    assert.equal(sniffContent(text('just some words\n')), 'text');
  });
});

describe('checkFileType', () => {
  it('accepts content that matches the extension', () => {
    const result = checkFileType('photo.png', png(quarters(4, 4)), ALLOWED);
    assert.deepEqual(result.ok && [result.fileName, result.type], ['photo.png', 'image/png']);
    const notes = checkFileType('notes.txt', text('hello\n'), ALLOWED);
    assert.equal(notes.ok && notes.type, 'text/plain');
    const paper = checkFileType('paper.pdf', text('%PDF-1.4\n...'), ALLOWED);
    assert.equal(paper.ok && paper.type, 'application/pdf');
    const document = checkFileType('letter.docx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2]), ALLOWED);
    assert.equal(document.ok && document.type, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  });

  it('gives a misnamed image its real extension', () => {
    const result = checkFileType('photo.png', jpeg(quarters(8, 8)), ALLOWED);
    assert.equal(result.ok, true);
    if (!result.ok) return;
    assert.equal(result.fileName, 'photo.jpg');
    assert.equal(result.type, 'image/jpeg');
  });

  it('refuses content that contradicts the extension', () => {
    for (const [name, bytes] of [
      ['fake.png', text('this is not a picture')],
      ['fake.jpg', text('<?php system($_GET["c"]); ?>')],
      ['fake.pdf', png(quarters(4, 4))],
      ['fake.txt', text('<html><script>alert(1)</script></html>')],
      ['fake.txt', text('MZ\x90\x00\x03')],
      ['fake.mp3', text('plain words')],
      ['fake.docx', text('%PDF-1.4')],
    ] as const) {
      const result = checkFileType(name, bytes, ALLOWED);
      assert.equal(result.ok, false, name);
      assert.equal(!result.ok && result.reason, 'content-mismatch', name);
    }
  });

  it('refuses unknown types and empty files', () => {
    const unknown = checkFileType('script.php', text('<?php'), ALLOWED);
    assert.equal(!unknown.ok && unknown.reason, 'type-not-allowed');
    const noExtension = checkFileType('README', text('hi'), ALLOWED);
    assert.equal(!noExtension.ok && noExtension.reason, 'type-not-allowed');
    const empty = checkFileType('empty.png', new Uint8Array(0), ALLOWED);
    assert.equal(!empty.ok && empty.reason, 'empty');
  });
});

describe('uniqueFileName', () => {
  it('numbers taken names and lower-cases the extension', async () => {
    const blobs = createMemoryBlobStore();
    assert.equal(await uniqueFileName(blobs, '2026/11', 'photo.JPG'), 'photo.jpg');
    await blobs.put('2026/11/photo.jpg', new Uint8Array([1]), { contentType: 'image/jpeg' });
    assert.equal(await uniqueFileName(blobs, '2026/11', 'photo.jpg'), 'photo-1.jpg');
    await blobs.put('2026/11/photo-1.jpg', new Uint8Array([1]), { contentType: 'image/jpeg' });
    assert.equal(await uniqueFileName(blobs, '2026/11', 'photo.jpg'), 'photo-2.jpg');
    assert.equal(await uniqueFileName(blobs, '2026/12', 'photo.jpg'), 'photo.jpg');
  });

  it('always numbers names that look generated, and avoids names of generated files', async () => {
    const blobs = createMemoryBlobStore();
    assert.equal(await uniqueFileName(blobs, '2026/11', 'photo-300x200.jpg'), 'photo-300x200-1.jpg');
    assert.equal(await uniqueFileName(blobs, '2026/11', 'photo-scaled.jpg'), 'photo-scaled-1.jpg');
    await blobs.put('2026/11/sunset-150x150.jpg', new Uint8Array([1]), { contentType: 'image/jpeg' });
    assert.equal(await uniqueFileName(blobs, '2026/11', 'sunset.jpg'), 'sunset-1.jpg');
  });

  it('checks the names sizes converted to another format would take', async () => {
    const blobs = createMemoryBlobStore();
    await blobs.put('2026/11/phone.jpg', new Uint8Array([1]), { contentType: 'image/jpeg' });
    assert.equal(await uniqueFileName(blobs, '2026/11', 'phone.heic'), 'phone.heic');
    assert.equal(await uniqueFileName(blobs, '2026/11', 'phone.heic', { alternateExtensions: ['.jpg'] }), 'phone-1.heic');
  });
});
