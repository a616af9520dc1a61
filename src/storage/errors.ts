import type { StorageError, StorageErrorCode } from '../ports/storage.js';

export function storageError(code: StorageErrorCode, message: string): StorageError {
  const error = new Error(message) as StorageError;
  error.name = 'StorageError';
  error.code = code;
  return error;
}
