import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseParent, largestFirst, neededScale, planRender, rectIn, type PlannedSize } from '../../../src/media/images/plan.js';
import { creationOrder, DEFAULT_IMAGE_SIZES } from '../../../src/media/images/sizes.js';

const sizes = creationOrder(DEFAULT_IMAGE_SIZES);
const names = (planned: PlannedSize[]) => Object.fromEntries(planned.map((size) => [size.name, `${size.width}x${size.height}`]));

describe('render plan', () => {
  it('names the files as the reference does, measured on the upright original', () => {
    const plan = planRender({ width: 4000, height: 3000, type: 'image/jpeg', orientation: 1, main: true, sizes, bigImageThreshold: 2560 });
    assert.deepEqual(plan.main, { suffix: 'scaled', width: 2560, height: 1920 });
    assert.deepEqual(names(plan.sizes), {
      medium: '300x225', large: '1024x768', thumbnail: '150x150', medium_large: '768x576', '1536x1536': '1536x1152', '2048x2048': '2048x1536',
    });
    assert.deepEqual(plan.sizes.map((size) => size.name), ['medium', 'large', 'thumbnail', 'medium_large', '1536x1536', '2048x2048']);
    assert.deepEqual(plan.sizes.find((size) => size.name === 'thumbnail')?.rect, { x: 500, y: 0, width: 3000, height: 3000 });
  });

  it('makes a -rotated main file for a turned image under the threshold, and none for PNGs or when asked not to', () => {
    assert.deepEqual(planRender({ width: 1200, height: 800, type: 'image/jpeg', orientation: 6, main: true, sizes, bigImageThreshold: 2560 }).main,
      { suffix: 'rotated', width: 1200, height: 800 });
    assert.equal(planRender({ width: 4000, height: 3000, type: 'image/png', orientation: 1, main: true, sizes, bigImageThreshold: 2560 }).main, null);
    assert.equal(planRender({ width: 4000, height: 3000, type: 'image/jpeg', orientation: 6, main: false, sizes, bigImageThreshold: 2560 }).main, null);
    assert.equal(planRender({ width: 4000, height: 3000, type: 'image/jpeg', orientation: 1, main: true, sizes, bigImageThreshold: 0 }).main, null);
  });

  it('takes pixels from the smallest made size with twice the pixels needed, else from the -scaled copy', () => {
    const original = { width: 4000, height: 3000 };
    const plan = planRender({ width: 4000, height: 3000, type: 'image/jpeg', orientation: 1, main: true, sizes, bigImageThreshold: 2560 });
    const scaled = { width: 2560, height: 1920, label: 'scaled' };
    const medium = { width: 300, height: 225, label: 'medium' };
    const large = { width: 1024, height: 768, label: 'large' };
    const size = (name: string) => plan.sizes.find((candidate) => candidate.name === name)!;
    // 150 of a 3000 square: medium has 225 rows of it (1.5×), large 768 (5×).
    assert.equal(chooseParent(size('thumbnail'), original, scaled, [medium, large])?.label, 'large');
    // 768 wide from large (1024) would be 1.3×: the -scaled copy is used.
    assert.equal(chooseParent(size('medium_large'), original, scaled, [medium, large])?.label, 'scaled');
    // A size larger than the -scaled copy comes from the original.
    const huge: PlannedSize = { name: 'huge', width: 3000, height: 2250, rect: { x: 0, y: 0, width: 4000, height: 3000 }, crop: false };
    assert.equal(chooseParent(huge, original, scaled, [medium, large]), null);
  });

  it('makes sizes largest first, so each can come from a larger made one', () => {
    const plan = planRender({ width: 4000, height: 3000, type: 'image/jpeg', orientation: 1, main: true, sizes, bigImageThreshold: 2560 });
    const order = largestFirst(plan.sizes).map((index) => plan.sizes[index]!.name);
    assert.deepEqual(order, ['2048x2048', '1536x1536', 'large', 'medium_large', 'medium', 'thumbnail']);
    const original = { width: 4000, height: 3000 };
    const base = { name: 'scaled', width: 2560, height: 1920 };
    const made: (typeof base)[] = [];
    const parents: string[] = [];
    for (const name of order) {
      const size = plan.sizes.find((candidate) => candidate.name === name)!;
      parents.push(chooseParent(size, original, base, made)!.name);
      if (!size.crop) made.push({ name, width: size.width, height: size.height });
    }
    assert.deepEqual(parents, ['scaled', 'scaled', '2048x2048', '1536x1536', 'medium_large', 'medium_large']);
  });

  it('maps rectangles of the original into a parent, and knows how small a decode may be', () => {
    assert.deepEqual(rectIn({ width: 2560, height: 1920 }, { width: 4000, height: 3000 }, { x: 500, y: 0, width: 3000, height: 3000 }),
      { x: 320, y: 0, width: 1920, height: 1920 });
    const original = { width: 4000, height: 3000 };
    const scaledPlan = planRender({ width: 4000, height: 3000, type: 'image/jpeg', orientation: 1, main: true, sizes, bigImageThreshold: 2560 });
    assert.equal(neededScale(scaledPlan, original), 0.64);
    const sizesOnly = planRender({ width: 4000, height: 3000, type: 'image/jpeg', orientation: 1, main: false, sizes: sizes.slice(0, 3), bigImageThreshold: 2560 });
    // medium, large and thumbnail need at most 1024 of 4000 columns.
    assert.equal(neededScale(sizesOnly, original), 1024 / 4000);
    const rotated = planRender({ width: 1200, height: 800, type: 'image/jpeg', orientation: 6, main: true, sizes, bigImageThreshold: 2560 });
    assert.equal(neededScale(rotated, { width: 1200, height: 800 }), 1);
  });
});
