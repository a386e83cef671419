import { describe, expect, it } from 'vitest';
import { iconName } from './icon-names';

describe('antd icon names', () => {
  it('names a lone icon in Finnish on a Finnish page and leaves English as antd gives it', () => {
    expect(iconName('left', 'fi')).toBe('edellinen');
    expect(iconName('close', 'fi')).toBe('sulje');
    expect(iconName('search', 'fi')).toBe('hae');
    expect(iconName('close', 'en')).toBe('close');
  });
});
