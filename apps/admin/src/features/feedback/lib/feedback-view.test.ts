import { emptyText, readFeedbackView, stateQuery, viewParam } from './feedback-view';

describe('the feedback page views', () => {
  it('opens on the messages still waiting, and reads the others from the address', () => {
    expect(readFeedbackView(null)).toBe('unhandled');
    expect(readFeedbackView('')).toBe('unhandled');
    expect(readFeedbackView('everything')).toBe('unhandled');
    expect(readFeedbackView('handled')).toBe('handled');
    expect(readFeedbackView('all')).toBe('all');
  });

  it('asks the server for a state, or none for all; the default view needs nothing in the address', () => {
    expect(stateQuery('unhandled')).toBe('unhandled');
    expect(stateQuery('handled')).toBe('handled');
    expect(stateQuery('all')).toBeUndefined();
    expect(viewParam('unhandled')).toBe('');
    expect(viewParam('all')).toBe('all');
  });

  it('says why the list is empty', () => {
    expect(emptyText('unhandled', { search: '', from: '' })).toBe('Nothing is waiting: every message has been handled.');
    expect(emptyText('handled', { search: '', from: '' })).toBe('No message has been handled yet.');
    expect(emptyText('all', { search: '', from: '' })).toBe('No feedback yet.');
    expect(emptyText('unhandled', { search: 'asha', from: '' })).toBe('No feedback matches this search.');
    expect(emptyText('all', { search: '', from: '2026-11-01' })).toBe('No messages since then.');
  });
});
