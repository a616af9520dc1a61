/** A layer of a common shape (about 0.6 KiB of JSON): text, position, size, a timeline and a font. */
export function sliderLayer(slide: number, index: number): Record<string, unknown> {
  return {
    id: index,
    alias: `Layer ${slide}-${index}`,
    type: index % 5 === 0 ? 'image' : 'text',
    content: { text: `Slide ${slide}, layer ${index}: some words of text` },
    size: { w: { d: { v: 'auto' } }, h: { d: { v: 'auto' } } },
    pos: { x: { d: { v: `${index * 10}px` } }, y: { d: { v: `${index * 5}px` } }, h: { d: { v: 'center' } }, v: { d: { v: 'middle' } } },
    zIndex: index,
    tl: {
      in: { content: { all: [{ t: 0, d: 300, e: 'power3.inOut', o: 0 }, { t: 300, d: 300, e: 'power3.inOut', o: 1 }] } },
      out: { content: { all: [{ t: 9000, d: 300, e: 'power3.inOut', o: 0 }] } },
    },
    font: { family: 'Roboto', size: { d: { v: '20px' } }, weight: { d: { v: '400' } } },
    color: { d: { v: '#ffffff' } },
    actions: { action: [] },
  };
}
