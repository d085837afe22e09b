import { swipeDirection } from './use-swipe';

describe('swipeDirection', () => {
  it('turns to the next page for a quick move to the left, the previous for one to the right', () => {
    expect(swipeDirection(-120, 10, 200)).toBe('next');
    expect(swipeDirection(120, -10, 200)).toBe('previous');
  });

  it('ignores taps, slow drags and moves that are mostly up or down (scrolling)', () => {
    expect(swipeDirection(-20, 0, 100)).toBeNull();
    expect(swipeDirection(-200, 0, 1500)).toBeNull();
    expect(swipeDirection(-80, 70, 200)).toBeNull();
  });
});
