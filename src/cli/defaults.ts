/** The standalone server's defaults, shared by the argument parser and its help text. */
export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_API_ROOT = '/cms-json';
export const WORDPRESS_API_ROOT = '/wp-json';
export const DEFAULT_ADMIN_LOGIN = 'admin';
export const DEFAULT_DATA_FILE = './quire.db';
export const DEFAULT_ADMIN_PATH = '/admin';
