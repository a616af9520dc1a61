/**
 * The authoring app in a real browser: sign-in, a post written with blocks and an uploaded image, terms, the
 * featured image, publishing, revisions, autosave recovery, undo and redo, media paging, a contributor's review, a
 * page with a parent, the trash.
 * Every step ends with the browser's log clean. Screenshots go to test-output/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, type BrowserLog, chromiumSkip, createUser, launch, screenshot, signIn, startSite, type Site } from './browser-harness.js';

const skip = chromiumSkip();

describe('the authoring app in Chromium', { skip, timeout: 150_000 }, () => {
  let site: Site;
  let browser: Browser;
  let page: Page;
  let log: BrowserLog;
  let postId = 0;
  let imageId = 0;
  const admin: [string, string] = ['admin', ADMIN_PASSWORD];

  before(async () => {
    site = await startSite({ autosaveInterval: 1 });
    ({ browser, page, log } = await launch());
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  const notice = (text: string) => page.locator('.components-notice__content', { hasText: text }).first();

  async function typeInCanvas(text: string): Promise<void> {
    await page.keyboard.type(text, { delay: 5 });
  }

  it('signs in with an application password and lists the posts', async () => {
    await page.goto(site.adminUrl);
    await page.getByLabel('Login').fill('admin');
    await page.getByLabel('Application password').fill('wrong password 123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('.components-notice.is-error').waitFor();
    log.assertClean([/status 401: GET .*\/users\/me/, /console: Failed to load resource.*401/]);
    await signIn(page, site.adminUrl, admin);
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    log.assertClean();
  });

  it('writes a post with a heading, a paragraph, a list and an uploaded image; a new category; a featured image; publishes it', async () => {
    await page.getByRole('link', { name: 'Add post' }).click();
    await page.getByLabel('Add title').fill('A post from the browser');
    await page.locator('.block-editor-rich-text__editable').first().click();
    await typeInCanvas('## A heading');
    await page.keyboard.press('Enter');
    await typeInCanvas('A paragraph of text.');
    await page.keyboard.press('Enter');
    await typeInCanvas('- first item');
    await page.keyboard.press('Enter');
    await typeInCanvas('second item');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await typeInCanvas('/image');
    await page.locator('.components-autocomplete__result').first().waitFor();
    await page.keyboard.press('Enter');
    const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#3366cc' } }).png().toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await page.locator('.wp-block-image').getByRole('button', { name: 'Upload' }).click();
    await (await chooser).setFiles({ name: 'blue.png', mimeType: 'image/png', buffer: png });
    await page.locator('.wp-block-image img[src*="/uploads/"]').waitFor();

    await page.getByLabel('New category').fill('Browser news');
    await page.getByRole('button', { name: 'Add new category' }).click();
    await page.getByRole('checkbox', { name: 'Browser news' }).waitFor();
    assert.equal(await page.getByRole('checkbox', { name: 'Browser news' }).isChecked(), true);

    await page.getByRole('button', { name: 'Choose from the library' }).click();
    await page.getByRole('dialog').locator('img').first().click();
    await page.locator('.quire-admin-featured-image img').waitFor();
    await screenshot(page, 'editor');

    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await notice('Published.').waitFor();
    postId = Number(/#\/edit\/post\/(\d+)/.exec(page.url())?.[1]);
    assert.ok(postId > 0, page.url());

    const { body: post } = await site.api(`/cms/v2/posts/${postId}?context=edit`);
    assert.equal(post.status, 'publish');
    assert.equal(post.title.raw, 'A post from the browser');
    assert.match(post.content.raw, /<!-- wp:heading -->\s*<h2 class="wp-block-heading">A heading<\/h2>/);
    assert.match(post.content.raw, /<!-- wp:paragraph -->\s*<p>A paragraph of text\.<\/p>/);
    assert.match(post.content.raw, /<!-- wp:list -->[\s\S]*<li>first item<\/li>[\s\S]*<li>second item<\/li>/);
    const image = /<!-- wp:image \{"id":(\d+)/.exec(post.content.raw);
    assert.ok(image, post.content.raw);
    imageId = Number(image[1]);
    assert.match(post.content.rendered, /<h2 class="wp-block-heading">A heading<\/h2>/);
    assert.match(post.content.rendered, /<img [^>]*src="[^"]*\/uploads\//);
    assert.doesNotMatch(post.content.rendered, /<!-- wp:/);
    assert.equal(post.featured_media, imageId);
    const { body: categories } = await site.api('/cms/v2/categories?search=Browser');
    assert.equal(categories.length, 1);
    assert.ok(post.categories.includes(categories[0].id), JSON.stringify(post.categories));
    log.assertClean();
  });

  it('updates the post and restores the earlier revision', async () => {
    await page.getByLabel('Add title').fill('A renamed post');
    await page.getByRole('button', { name: 'Update' }).click();
    await notice('Published.').waitFor();
    assert.equal((await site.api(`/cms/v2/posts/${postId}?context=edit`)).body.title.raw, 'A renamed post');
    await page.getByRole('button', { name: 'Revisions' }).click();
    const older = page.getByRole('dialog').getByRole('listitem').filter({ hasText: 'A post from the browser' }).first();
    await older.getByRole('button', { name: 'Restore this revision' }).click();
    assert.equal(await page.getByLabel('Add title').inputValue(), 'A post from the browser');
    await page.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    const { body: post } = await site.api(`/cms/v2/posts/${postId}?context=edit`);
    assert.equal(post.title.raw, 'A post from the browser');
    assert.match(post.content.raw, /wp:image/);
    log.assertClean();
  });

  it('autosaves changes to the published post and offers them back after a reload', async () => {
    const autosaved = page.waitForResponse((response) => /\/posts\/\d+\/autosaves/.test(response.url()) && response.request().method() === 'POST');
    await page.getByLabel('Add title').fill('An autosaved title');
    assert.equal((await autosaved).status(), 200);
    await page.reload();
    await notice('There is an autosave of this item').waitFor();
    assert.equal(await page.getByLabel('Add title').inputValue(), 'A post from the browser');
    await page.getByRole('button', { name: 'Restore the autosave' }).click();
    assert.equal(await page.getByLabel('Add title').inputValue(), 'An autosaved title');
    assert.equal((await site.api(`/cms/v2/posts/${postId}?context=edit`)).body.title.raw, 'A post from the browser', 'the post itself is unchanged');
    log.assertClean();
  });

  it('schedules a post for a later date', async () => {
    await page.goto(`${site.adminUrl}#/new/post`);
    await page.getByLabel('Add title').fill('Later');
    await page.getByLabel('Publish date').fill(`${new Date().getUTCFullYear() + 1}-06-01T09:30`);
    await page.getByRole('button', { name: 'Schedule' }).click();
    await notice('Scheduled.').waitFor();
    const id = Number(/#\/edit\/post\/(\d+)/.exec(page.url())?.[1]);
    const { body: post } = await site.api(`/cms/v2/posts/${id}?context=edit`);
    assert.equal(post.status, 'future');
    assert.equal(post.date, `${new Date().getUTCFullYear() + 1}-06-01T09:30:00`);
    log.assertClean();
  });

  it('makes a page with a parent', async () => {
    const parent = await site.api('/cms/v2/pages', { method: 'POST', body: { title: 'Parent page', status: 'publish' } });
    await page.goto(`${site.adminUrl}#/new/page`);
    await page.getByLabel('Add title').fill('Child page');
    await page.getByLabel('Parent page').selectOption({ label: 'Parent page' });
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await notice('Published.').waitFor();
    const id = Number(/#\/edit\/page\/(\d+)/.exec(page.url())?.[1]);
    const { body: child } = await site.api(`/cms/v2/pages/${id}?context=edit`);
    assert.equal(child.parent, parent.body.id);
    assert.equal(child.status, 'publish');
    log.assertClean();
  });

  it('offers a block the host registered from its own script', async () => {
    await page.goto(`${site.adminUrl}#/new/post`);
    await page.locator('.block-editor-rich-text__editable').first().click();
    await typeInCanvas('/Acme');
    await page.locator('.components-autocomplete__result', { hasText: 'Acme notice' }).click();
    await page.locator('.acme-notice').waitFor();
    await page.getByLabel('Add title').fill('With a host block');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await notice('Draft saved.').waitFor();
    const id = Number(/#\/edit\/post\/(\d+)/.exec(page.url())?.[1]);
    assert.match((await site.api(`/cms/v2/posts/${id}?context=edit`)).body.content.raw, /<!-- wp:acme\/notice -->\s*<p class="wp-block-acme-notice acme-notice">Acme notice<\/p>/);
    log.assertClean();
  });

  it('undoes and redoes typing in the canvas and the title, by keyboard and by the toolbar', async () => {
    await page.goto(`${site.adminUrl}#/new/post`);
    await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('.quire-admin-title')?.value === '');
    const undo = page.getByRole('button', { name: 'Undo' });
    const redo = page.getByRole('button', { name: 'Redo' });
    const canvas = page.locator('.quire-admin-canvas');
    assert.equal(await undo.getAttribute('aria-disabled'), 'true');
    assert.equal(await redo.getAttribute('aria-disabled'), 'true');
    await page.getByLabel('Add title').click();
    await typeInCanvas('Undo test');
    await page.locator('.block-editor-rich-text__editable').first().click();
    await typeInCanvas('First paragraph.');
    await page.keyboard.press('Enter');
    await typeInCanvas('Second paragraph.');
    assert.equal(await redo.getAttribute('aria-disabled'), 'true');

    await page.keyboard.press('Control+z');
    await canvas.getByText('Second paragraph.').waitFor({ state: 'detached' });
    await canvas.getByText('First paragraph.').waitFor();
    assert.equal(await redo.getAttribute('aria-disabled'), null);
    await redo.click();
    await canvas.getByText('Second paragraph.').waitFor();
    assert.equal(await redo.getAttribute('aria-disabled'), 'true');
    await undo.click();
    await canvas.getByText('Second paragraph.').waitFor({ state: 'detached' });
    await page.keyboard.press('Control+Shift+z');
    await canvas.getByText('Second paragraph.').waitFor();

    await page.getByLabel('Add title').click();
    await page.keyboard.press('End');
    await typeInCanvas(' again');
    await page.keyboard.press('Control+z');
    assert.equal(await page.getByLabel('Add title').inputValue(), 'Undo test');
    assert.equal(await canvas.getByText('Second paragraph.').count(), 1, 'undoing the title leaves the blocks');
    await page.keyboard.press('Control+y');
    assert.equal(await page.getByLabel('Add title').inputValue(), 'Undo test again');

    await page.getByRole('button', { name: 'Save draft' }).click();
    await notice('Draft saved.').waitFor();
    const id = Number(/#\/edit\/post\/(\d+)/.exec(page.url())?.[1]);
    const { body: post } = await site.api(`/cms/v2/posts/${id}?context=edit`);
    assert.equal(post.title.raw, 'Undo test again');
    assert.match(post.content.raw, /<!-- wp:paragraph -->\s*<p>First paragraph\.<\/p>\s*<!-- \/wp:paragraph -->\s*<!-- wp:paragraph -->\s*<p>Second paragraph\.<\/p>/);
    log.assertClean();
  });

  it('keeps what is typed while a save is under way, as an unsaved change', async () => {
    // A page of its own address with no autosave: only the save the test holds may write, however slowly the
    // typing goes. GETs cut short by the test's own navigation (in and out of that page) are not the app's errors.
    const quietUrl = `${site.adminUrl}?autosave=off`;
    const cutShort = /^failed: GET .* net::ERR_ABORTED$/;
    await page.route(quietUrl, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(/"autosaveInterval":1\b/, '"autosaveInterval":3600');
      assert.match(html, /"autosaveInterval":3600/);
      const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !/^content-(length|encoding)$/i.test(name)));
      await route.fulfill({ status: response.status(), headers, body: html });
    });
    await page.goto(`${quietUrl}#/new/post`);
    await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('.quire-admin-title')?.value === '');
    log.assertClean([cutShort]);
    await page.getByLabel('Add title').click();
    await typeInCanvas('Typed before');
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let sentTitle: unknown;
    await page.route('**/v2/posts?*', async (route) => {
      sentTitle = (route.request().postDataJSON() as { title?: unknown }).title;
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Saving…').waitFor();
    await page.getByLabel('Add title').click();
    await page.keyboard.press('End');
    await typeInCanvas(' and during');
    release();
    await notice('Draft saved.').waitFor();
    await page.unroute('**/v2/posts?*');
    assert.equal(await page.getByLabel('Add title').inputValue(), 'Typed before and during');
    await page.getByText('Unsaved changes').waitFor();
    const id = Number(/#\/edit\/post\/(\d+)/.exec(page.url())?.[1]);
    assert.equal(sentTitle, 'Typed before');
    assert.equal((await site.api(`/cms/v2/posts/${id}?context=edit`)).body.title.raw, 'Typed before');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Saved', { exact: true }).waitFor();
    assert.equal((await site.api(`/cms/v2/posts/${id}?context=edit`)).body.title.raw, 'Typed before and during');
    log.assertClean();
    await page.unroute(quietUrl);
    await page.goto(`${site.adminUrl}#/posts`);
    await page.getByRole('heading', { name: 'Posts' }).waitFor();
    log.assertClean([cutShort]);
  });

  it('uploads to the media library with progress, edits the alternative text and deletes', async () => {
    await page.goto(`${site.adminUrl}#/media`);
    await page.getByRole('heading', { name: 'Media' }).waitFor();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#22aa44' } }).png().toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await (await chooser).setFiles({ name: 'green.png', mimeType: 'image/png', buffer: png });
    const item = page.locator('.quire-admin-media-item', { hasText: 'green' });
    await item.waitFor();
    await screenshot(page, 'media');
    await item.getByLabel('Alternative text').fill('A green square');
    await item.getByRole('button', { name: 'Save' }).click();
    await item.getByRole('button', { name: 'Save' }).and(page.locator('[disabled], [aria-disabled="true"]')).waitFor();
    const { body: media } = await site.api('/cms/v2/media?search=green&context=edit');
    assert.equal(media.length, 1);
    assert.equal(media[0].alt_text, 'A green square');
    await item.getByRole('button', { name: 'Delete permanently' }).click();
    await item.waitFor({ state: 'detached' });
    assert.equal((await site.api(`/cms/v2/media/${media[0].id}`)).status, 404);
    log.assertClean();
  });

  it('pages through a library larger than one page, in the media screen and the featured-image picker', async () => {
    const perPage = 40;
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#aa3300' } }).png().toBuffer();
    const authorization = `Basic ${Buffer.from(admin.join(':')).toString('base64')}`;
    for (let index = 0; index <= perPage; index += 1) { // one at a time: the server limits concurrent image work
      const response = await fetch(`${site.origin}${site.cms.apiRoot}/cms/v2/media`, {
        method: 'POST', body: png,
        headers: { Authorization: authorization, 'Content-Type': 'image/png', 'Content-Disposition': `attachment; filename="bulk-${index}.png"` },
      });
      assert.equal(response.status, 201, await response.text());
    }
    const { body: all } = await site.api<{ id: number }[]>('/cms/v2/media?per_page=100');
    assert.ok(all.length > perPage && all.length <= 2 * perPage, String(all.length));

    await page.goto(`${site.adminUrl}#/media`);
    await page.reload();
    const items = page.locator('.quire-admin-media-item');
    await items.nth(perPage - 1).waitFor();
    assert.equal(await items.count(), perPage);
    await page.getByRole('button', { name: 'Load more' }).click();
    await items.nth(all.length - 1).waitFor();
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    assert.equal(await items.count(), all.length);
    log.assertClean();

    await page.goto(`${site.adminUrl}#/new/post`);
    await page.getByRole('button', { name: 'Choose from the library' }).click();
    const choices = page.getByRole('dialog').locator('.quire-admin-media-grid li');
    await choices.nth(perPage - 1).waitFor();
    assert.equal(await choices.count(), perPage);
    await page.getByRole('dialog').getByRole('button', { name: 'Load more' }).click();
    await choices.nth(all.length - 1).waitFor();
    assert.equal(await choices.count(), all.length);
    await choices.last().locator('button').click();
    await page.locator('.quire-admin-featured-image img').waitFor();
    // A new post with only a featured image has nothing the API would save: the autosave (every second here) waits.
    await page.waitForTimeout(2500);
    log.assertClean();
  });

  it('moves a post to the trash and restores it from the list', async () => {
    await page.goto(`${site.adminUrl}#/posts`);
    const row = page.getByRole('row').filter({ hasText: 'A post from the browser' });
    await screenshot(page, 'list');
    await row.getByRole('button', { name: 'Trash' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await site.api(`/cms/v2/posts/${postId}?context=edit`)).body.status, 'trash');
    await page.getByLabel('Status').selectOption('trash');
    await page.getByRole('row').filter({ hasText: 'A post from the browser' }).getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Nothing found.').waitFor();
    assert.notEqual((await site.api(`/cms/v2/posts/${postId}?context=edit`)).body.status, 'trash');
    log.assertClean();
  });

  it('lets a contributor only submit for review, and shows a subscriber nothing to edit', async () => {
    const contributor = await createUser(site, 'casey', 'contributor');
    await signIn(page, site.adminUrl, contributor);
    await page.getByRole('link', { name: 'Add post' }).click();
    await page.getByLabel('Add title').fill('For review');
    assert.equal(await page.getByRole('button', { name: 'Publish', exact: true }).count(), 0);
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await notice('Submitted for review.').waitFor();
    const id = Number(/#\/edit\/post\/(\d+)/.exec(page.url())?.[1]);
    assert.equal((await site.api(`/cms/v2/posts/${id}?context=edit`)).body.status, 'pending');
    log.assertClean();

    const subscriber = await createUser(site, 'sam', 'subscriber');
    await signIn(page, site.adminUrl, subscriber);
    await page.getByText('Your account has nothing to edit on this site.').waitFor();
    assert.equal(await page.getByRole('link', { name: 'Posts' }).count(), 0);
    log.assertClean();
  });
});

describe('the authoring app against the reference names', { skip, timeout: 60_000 }, () => {
  it('signs in, writes and publishes a post under /wp-json/wp/v2', async () => {
    const site = await startSite({ names: 'wordpress' });
    const { browser, page, log } = await launch();
    try {
      await signIn(page, site.adminUrl, ['admin', ADMIN_PASSWORD]);
      await page.getByRole('link', { name: 'Add post' }).click();
      await page.getByLabel('Add title').fill('Under the reference names');
      await page.locator('.block-editor-rich-text__editable').first().click();
      await page.keyboard.type('Some text.');
      await page.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.locator('.components-notice__content', { hasText: 'Published.' }).waitFor();
      const id = Number(/#\/edit\/post\/(\d+)/.exec(page.url())?.[1]);
      const { body: post } = await site.api(`/wp/v2/posts/${id}?context=edit`);
      assert.equal(post.status, 'publish');
      assert.match(post.content.raw, /<!-- wp:paragraph -->\s*<p>Some text\.<\/p>/);
      log.assertClean();
    } finally {
      await browser.close();
      await site.close();
    }
  });
});
