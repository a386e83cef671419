import { describe, expect, it } from 'vitest';
import { CHOSEN_CLIENT_KEY, readChosenClient, writeChosenClient } from './chosen-client';
import { memoryStorage } from './memory-storage';

const memory = memoryStorage;

describe('the chosen client', () => {
  it('is remembered for the user who chose it', () => {
    const storage = memory();
    writeChosenClient(storage, 'admin@kulu.fi', 7);
    expect(readChosenClient(storage, 'admin@kulu.fi')).toBe(7);
  });

  it('is not handed to another user signing in on the same browser', () => {
    const storage = memory();
    writeChosenClient(storage, 'admin@kulu.fi', 7);
    expect(readChosenClient(storage, 'consultant@kulu.fi')).toBeUndefined();
  });

  it('is forgotten when cleared', () => {
    const storage = memory();
    writeChosenClient(storage, 'admin@kulu.fi', 7);
    writeChosenClient(storage, 'admin@kulu.fi', undefined);
    expect(storage.map.has(CHOSEN_CLIENT_KEY)).toBe(false);
    expect(readChosenClient(storage, 'admin@kulu.fi')).toBeUndefined();
  });

  it.each([
    '7',
    'not json',
    '{"email":"admin@kulu.fi","clientId":-1}',
    '{"email":"admin@kulu.fi","clientId":"7"}',
  ])('ignores a stored value that is not a client id (%s)', (raw) => {
    const storage = memory();
    storage.setItem(CHOSEN_CLIENT_KEY, raw);
    expect(readChosenClient(storage, 'admin@kulu.fi')).toBeUndefined();
  });
});
