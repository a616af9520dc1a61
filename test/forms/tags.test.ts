import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { scanTags } from '../../src/forms/tags/scan.js';

const json = (template: string) => scanTags(template).map((tag) => tag.toJSON());

describe('form-tag scanner', () => {
  it('reads type, required mark, name, options, values, labels and pipes', () => {
    assert.deepEqual(json('[select* your-topic id:topic class:a class:b include_blank "Sales|sales@example.com" \'Support\']'), [{
      type: 'select*', basetype: 'select', name: 'your-topic', options: ['id:topic', 'class:a', 'class:b', 'include_blank'],
      raw_values: ['Sales|sales@example.com', 'Support'], labels: ['Sales', 'Support'], values: ['Sales', 'Support'],
      pipes: [['Sales', 'sales@example.com'], ['Support', 'Support']], content: '',
    }]);
  });

  it('knows every tag type the plugin ships', () => {
    const template = [
      '[text a]', '[text* b]', '[email c]', '[email* d]', '[url e]', '[url* f]', '[tel g]', '[tel* h]', '[number i]', '[number* j]',
      '[range k]', '[range* l]', '[date m]', '[date* n]', '[textarea o]', '[textarea* p]', '[select q]', '[select* r]', '[checkbox s "x"]',
      '[checkbox* t "x"]', '[radio u "x"]', '[acceptance v]', '[quiz w]', '[file x]', '[file* y]', '[hidden z]', '[submit]',
      '[count b]', '[response]', '[captchac cc]', '[captchar cr]', '[reflection a]', '[output a]',
    ].join('\n');
    assert.deepEqual(scanTags(template).map((tag) => tag.type), [
      'text', 'text*', 'email', 'email*', 'url', 'url*', 'tel', 'tel*', 'number', 'number*', 'range', 'range*', 'date', 'date*',
      'textarea', 'textarea*', 'select', 'select*', 'checkbox', 'checkbox*', 'radio', 'acceptance', 'quiz', 'file', 'file*',
      'hidden', 'submit', 'count', 'response', 'captchac', 'captchar', 'reflection', 'output',
    ]);
    assert.deepEqual(json('[radio* r "x"] [unknown x] [texts a]'), []);
  });

  it('takes the enclosed content of closing tags, trimmed, without a final <br />', () => {
    const [tag] = json('[acceptance terms optional] I accept the <a href="/terms">terms</a> <br />\n[/acceptance]');
    assert.equal(tag!.content, 'I accept the <a href="/terms">terms</a> ');
    assert.deepEqual(tag!.options, ['optional']);
    assert.equal(json('[textarea msg]Default text[/textarea]')[0]!.content, 'Default text');
  });

  it('gives the submit tag an empty name, and keeps its value', () => {
    assert.deepEqual(json('[submit "Send it"]')[0], {
      type: 'submit', basetype: 'submit', name: '', options: [], raw_values: ['Send it'], labels: ['Send it'], values: ['Send it'],
      pipes: [['Send it', 'Send it']], content: '',
    });
  });

  it('turns dots into underscores in names, and skips invalid names and attribute text', () => {
    const [dotted] = scanTags('[text first.name]');
    assert.equal(dotted!.name, 'first_name');
    assert.equal(dotted!.rawName, 'first.name');
    assert.deepEqual(json('[text 9bad] [text] [text ok "a" bare] [text ok2 <b>]'), []);
    const [submit] = json('[submit <x>]');
    assert.deepEqual([submit!.options, submit!.values, submit!.pipes], [[], [], null]);
  });

  it('treats [[tag]] as an escape and normalises odd spaces', () => {
    assert.deepEqual(json('[[text a]] [text\u00a0b\u00a0"v"]').map((tag) => [tag.name, tag.values]), [['b', ['v']]]);
    assert.deepEqual(json('[text c /]').map((tag) => tag.name), ['c']);
  });

  it('keeps only the first of a singular type', () => {
    assert.equal(json('[stripe] [stripe "again"]').length, 1);
  });

  it('reads option shorthands and values', () => {
    const [text] = scanTags('[text a 40/100 minlength:5 tabindex:-2 autocomplete:Name|email|-bad]');
    assert.deepEqual([text!.sizeOption(), text!.maxlengthOption(), text!.minlengthOption(), text!.option('tabindex', 'signed_int')], ['40', '100', '5', '-2']);
    assert.equal(text!.autocompleteOption(), 'name email');
    const [area] = scanTags('[textarea b 60x8/2000]');
    assert.deepEqual([area!.colsOption(), area!.rowsOption(), area!.maxlengthOption()], ['60', '8', '2000']);
    const [file] = scanTags('[file c limit:2mb]');
    assert.equal(file!.limitOption(), 2 * 1024 * 1024);
    assert.equal(scanTags('[file d limit:30kb]')[0]!.limitOption(), 30 * 1024);
    assert.equal(scanTags('[file e]')[0]!.limitOption(), 1024 * 1024);
    const [select] = scanTags('[select f default:2_3 "a" "b" "c"]');
    assert.deepEqual(select!.defaultValues(), ['b', 'c']);
    assert.equal(scanTags('[text g id:wpcf7-x]')[0]!.idOption(), null);
  });
});
