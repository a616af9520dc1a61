/** Categories as a checklist with a new one added inline; tags as tokens, new names created on the spot. */
import apiFetch from '@wordpress/api-fetch';
import { Button, CheckboxControl, FormTokenField, Notice, TextControl } from '@wordpress/components';
import { useEffect, useState } from 'react';
import { errorMessage } from './api.js';
import { can, useSession } from './app.js';

interface Term { id: number; name: string }

const decode = (html: string): string => new DOMParser().parseFromString(html, 'text/html').documentElement.textContent ?? html;

export function Categories({ selected, onChange }: { selected: number[]; onChange: (next: number[]) => void }) {
  const { user } = useSession();
  const [terms, setTerms] = useState<Term[]>([]);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    apiFetch<Term[]>({ path: '/wp/v2/categories?per_page=100&_fields=id,name&orderby=name' }).then(setTerms, (failure) => setError(errorMessage(failure)));
  }, []);

  const add = async () => {
    try {
      const term = await apiFetch<Term>({ path: '/wp/v2/categories', method: 'POST', data: { name: name.trim() } });
      setTerms((previous) => [...previous, term]);
      onChange([...selected, term.id]);
      setName('');
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <div className="quire-admin-categories">
      {error && <Notice status="error" onRemove={() => setError(null)}>{error}</Notice>}
      {terms.map((term) => (
        <CheckboxControl key={term.id} label={decode(term.name)} checked={selected.includes(term.id)}
          onChange={(checked) => onChange(checked ? [...selected, term.id] : selected.filter((id) => id !== term.id))} />
      ))}
      {can(user, 'manage_categories') && (
        <div className="quire-admin-new-term">
          <TextControl __next40pxDefaultSize label="New category" value={name} onChange={setName} />
          <Button variant="secondary" disabled={!name.trim()} onClick={add}>Add new category</Button>
        </div>
      )}
    </div>
  );
}

export function Tags({ selected, onChange }: { selected: number[]; onChange: (next: number[]) => void }) {
  const { user } = useSession();
  // Creating a tag takes the same capability as managing categories; without it only existing tags are offered.
  const mayCreate = can(user, 'manage_categories');
  const [known, setKnown] = useState<Term[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    apiFetch<Term[]>({ path: '/wp/v2/tags?per_page=100&_fields=id,name&orderby=count&order=desc' }).then(setKnown, (failure) => setError(errorMessage(failure)));
  }, []);

  const names = selected.map((id) => decode(known.find((term) => term.id === id)?.name ?? String(id)));
  const change = async (tokens: (string | { value: string })[]) => {
    const wanted = tokens.map((token) => (typeof token === 'string' ? token : token.value).trim()).filter(Boolean);
    try {
      const ids: number[] = [];
      const added: Term[] = [];
      for (const tag of wanted) {
        const existing = [...known, ...added].find((term) => decode(term.name).toLowerCase() === tag.toLowerCase());
        if (!existing && !mayCreate) {
          setError(`“${tag}” is not a tag yet, and your account may not add tags.`);
          continue;
        }
        const term = existing ?? await apiFetch<Term>({ path: '/wp/v2/tags', method: 'POST', data: { name: tag } });
        if (!existing) added.push(term);
        ids.push(term.id);
      }
      if (added.length) setKnown((previous) => [...previous, ...added]);
      onChange([...new Set(ids)]);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <div>
      {error && <Notice status="error" onRemove={() => setError(null)}>{error}</Notice>}
      <FormTokenField __next40pxDefaultSize __nextHasNoMarginBottom label="Add tag" value={names} suggestions={known.map((term) => decode(term.name))} onChange={change} />
    </div>
  );
}
