import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isEmail, isHexColor, isIpAddress, isUuid, parseDateTime, sanitizeHexColor } from '../../../src/format/formats.js';

describe('isEmail', () => {
  it('accepts what is_email accepts', () => {
    for (const email of ['a@b.co', 'A@B.COM', 'a+tag@ex-ample.com', "'*+/=?^_`{|}~@ab.cd", 'first.last@sub.example.org']) {
      assert.equal(isEmail(email), true, email);
    }
  });

  it('rejects short, malformed and non-ASCII addresses', () => {
    for (const email of ['a@b.c', 'abc', '@abc.com', 'a b@c.com', 'a@b..com', 'a@.b.com', 'a@b.com.', 'a@-b.com', 'a@b-.com',
      'a@b_c.com', 'ä@b.com', 'a@bä.com', 'x@y', 'abc@cd.com\n']) {
      assert.equal(isEmail(email), false, email);
    }
  });
});

describe('isIpAddress', () => {
  it('accepts IPv4 dotted quads', () => {
    for (const ip of ['1.2.3.4', '0.0.0.0', '255.255.255.255', '01.2.3.4']) assert.equal(isIpAddress(ip), true, ip);
    for (const ip of ['256.1.1.1', '1.2.3', '1.2.3.4.5', 'a.b.c.d', '']) assert.equal(isIpAddress(ip), false, ip);
  });

  it('accepts IPv6 with compression and embedded IPv4', () => {
    for (const ip of ['::', '::1', '1::', '2001:db8::1', '2001:DB8:0:0:0:0:2:1', '::ffff:1.2.3.4', '1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:7::']) {
      assert.equal(isIpAddress(ip), true, ip);
    }
    for (const ip of ['2001:db8::2::1', '12345::', 'g::1', '1:2:3:4:5:6:7:8:9', '::1.2.3.04', 'fe80::1%eth0', '::00001', ':::']) {
      assert.equal(isIpAddress(ip), false, ip);
    }
  });
});

describe('isUuid', () => {
  it('accepts lower-case UUIDs of any version only', () => {
    assert.equal(isUuid('123e4567-e89b-12d3-a456-426614174000'), true);
    assert.equal(isUuid('00000000-0000-0000-0000-000000000000'), true);
    assert.equal(isUuid('123E4567-E89B-12D3-A456-426614174000'), false);
    assert.equal(isUuid('123e4567e89b12d3a456426614174000'), false);
  });
});

describe('hex colours', () => {
  it('needs "#" and 3 or 6 hex digits', () => {
    assert.equal(isHexColor('#fff'), true);
    assert.equal(isHexColor('#A0b1C2'), true);
    for (const color of ['fff', '#ffff', '#ggg', '#abcdef0', '']) assert.equal(isHexColor(color), false, color);
  });

  it('sanitises to the colour, "" staying "", anything else becoming ""', () => {
    assert.equal(sanitizeHexColor('#A0b1C2'), '#A0b1C2');
    assert.equal(sanitizeHexColor(''), '');
    assert.equal(sanitizeHexColor('red'), '');
  });
});

describe('parseDateTime', () => {
  const iso = (text: string) => parseDateTime(text)?.toISOString() ?? null;

  it('reads RFC 3339 date-times, as UTC when there is no offset', () => {
    assert.equal(iso('2020-01-01T10:00:00'), '2020-01-01T10:00:00.000Z');
    assert.equal(iso('2020-01-01 10:00:00Z'), '2020-01-01T10:00:00.000Z');
    assert.equal(iso('2020-01-01t10:00:00+05:30'), '2020-01-01T04:30:00.000Z');
    assert.equal(iso('2020-01-01T10:00:00-03'), '2020-01-01T13:00:00.000Z');
    assert.equal(iso('2020-01-01T10:00:00.25Z'), '2020-01-01T10:00:00.250Z');
  });

  it('rolls over in-range overflows like the reference', () => {
    assert.equal(iso('2020-02-30T10:00:00'), '2020-03-01T10:00:00.000Z');
    assert.equal(iso('2020-00-10T10:00:00'), '2019-12-10T10:00:00.000Z');
    assert.equal(iso('2020-01-00T10:00:00'), '2019-12-31T10:00:00.000Z');
    assert.equal(iso('2020-01-01T24:30:00'), '2020-01-02T00:30:00.000Z');
    assert.equal(iso('2020-01-01T10:00:60'), '2020-01-01T10:01:00.000Z');
    assert.equal(iso('2020-01-01T10:00:00+25'), '2019-12-31T09:00:00.000Z');
    assert.equal(iso('0000-01-01T00:00:00'), '0000-01-01T00:00:00.000Z');
  });

  it('rejects other shapes and out-of-range fields', () => {
    for (const text of ['2020-01-01', '2020-13-01T10:00:00', '2020-01-32T10:00:00', '2020-01-01T25:00:00', '2020-01-01T10:60:00',
      '2020-01-01T10:00:61', '2020-01-01T10:00:00+25:00', '2020-01-01T10:00:00+05:60', '2020-01-01T10:00:00+0530', 'abc', '']) {
      assert.equal(parseDateTime(text), null, text);
    }
  });
});
