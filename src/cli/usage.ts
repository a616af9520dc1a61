import { DEFAULT_ADMIN_LOGIN, DEFAULT_ADMIN_PATH, DEFAULT_API_ROOT, DEFAULT_DATA_FILE, DEFAULT_HOST, DEFAULT_PORT, WORDPRESS_API_ROOT } from './defaults.js';
import { MIN_SITE_SECRET_LENGTH } from '../auth/index.js';

/** The text of `quire --help`. */
export const USAGE = `Usage: quire serve [options]
       quire import <file.xml> [store options] [--fetch-attachments] [--author-role <role>]
       quire export [store options] [--output <file>]
       quire users list [store options]
       quire users app-password create|list|revoke --login <login> [store options]

serve   Serves the quire REST interface over HTTP. Content is kept in a SQLite file by default, uploaded
        files in a folder beside it.
import  Reads a WordPress export file (WXR) into the store: authors, categories, tags, posts, pages,
        attachments and comments. All or nothing: a malformed file changes nothing. Progress goes to
        standard error, the summary to standard output.
export  Writes the store's content as a WordPress export file (WXR 1.2) to standard output (or --output).
users   Lists the store's users, and creates, lists and revokes a user's application passwords
        (quire users app-password create --login admin [--name <app>]; revoke also takes --uuid <id>).
        Creating one prints it once: the way back in when the administrator's password is lost.

Options:
  -p, --port <n>         port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
      --host <address>   address to listen on (default ${DEFAULT_HOST}; 0.0.0.0 for every interface)
      --api-root <path>  path of the API root (default ${DEFAULT_API_ROOT}, or ${WORDPRESS_API_ROOT} with
                         --names wordpress)
      --names <scheme>   neutral (default: cms/v2, forms/v1, mailing/v1, slider) or wordpress
                         (wp/v2, contact-form-7/v1, mc4wp/v1, sliderrevolution), for clients
                         written for WordPress
      --data <file>      SQLite database file (default ${DEFAULT_DATA_FILE}); created when missing
      --storage <kind>   sqlite (default) or memory (nothing is kept after exit)
      --postgres <url>   keep content in PostgreSQL instead (postgres://user:pass@host/db)
      --uploads <dir>    folder of uploaded files (default: uploads/ beside the database file)
      --blobs <url>      keep uploaded files in an S3-compatible bucket instead:
                         s3://bucket?endpoint=https://host[&region=r][&prefix=site/]; credentials from
                         AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN)
      --import <file>    store the sliders and sign-up forms of a JSON file ({"sliders": [...],
                         "signupForms": [...]}, the bodies of their POST routes) before serving;
                         existing aliases and slugs are updated, so importing again is safe
      --uploads-url <url>
                         public base URL of uploaded files (default: <site>/uploads, served by quire)
      --smtp <url>       send mail (forms, sign-up confirmations) through this SMTP server:
                         smtp://user:pass@host:587 or smtps://...
                         (default: mail is kept in memory, not sent)
      --image-codec <name>
                         image-js (default, pure JavaScript) or sharp (faster; needs the sharp
                         package installed: npm install sharp)
      --response-cache <MiB>
                         most memory the cache of encoded GET answers may hold (default 32),
                         or off to answer every read afresh
      --trust-proxy <hops|addresses>
                         believe X-Forwarded-For/-Proto/-Host and Forwarded from proxies in front:
                         a hop count (1: the one proxy before quire), or proxy addresses and ranges
                         (10.0.0.0/8,::1, or loopback, linklocal, uniquelocal); default: forwarded
                         headers are ignored and the socket's address is the client's
      --admin-path <path>
                         where the authoring app (the block editor) is served (default ${DEFAULT_ADMIN_PATH})
      --no-admin         serve the API without the authoring app
      --admin-login <login>
                         login of the first administrator, created on a new store (default ${DEFAULT_ADMIN_LOGIN})
      --admin-app-password <password>
                         make this the administrator's application password instead of a fresh
                         one (also read from QUIRE_ADMIN_APP_PASSWORD); an existing administrator's
                         password of that application is replaced by it
      --secret <text>    the site secret keyed links and form hashes are signed with, at least
                         ${MIN_SITE_SECRET_LENGTH} characters, the same for every process of the site (also read from
                         QUIRE_SECRET; default: one made once and kept in the store)
      --site-url <url>   the site's public address (https://example.com), for links, Location,
                         discovery and embeds (also read from QUIRE_SITE_URL; default: the address
                         each request reached)
      --log-format <f>   json (default: one JSON object a line) or pretty (readable lines)
      --log-level <l>    trace, debug, info (default: a line per request), warn, error or silent
      --quiet            only warnings and errors (--log-level warn)
      --workers <n|auto> serve from n processes sharing the port and the store (auto: one per
                         core; default 1); needs a SQLite file or PostgreSQL, not memory. One of
                         them creates the administrator; SIGTERM stops them all; one that dies is
                         replaced
      --webhook <url>    send every event (posts, comments, terms, media, forms, sign-ups) to this
                         URL, signed with QUIRE_WEBHOOK_SECRET (at least 16 characters); repeatable.
                         Trusted: loopback and private addresses are allowed. Failed deliveries
                         are retried for 24 h, the first after QUIRE_WEBHOOK_RETRY_MS (default
                         10000), doubling up to an hour; each waits QUIRE_WEBHOOK_TIMEOUT_MS
                         (default 10000) for an answer; see docs/webhooks.md
      GET /health answers 200 {"status":"ok"} or 503, outside the API root.

Store options (serve, import, export): --data, --storage, --postgres, --uploads, --blobs, --uploads-url, and
      --site-url <url>   the site's public address, for links and file addresses in WXR files
                         (default http://localhost)

Import and export options:
      --fetch-attachments
                         download attachment files into the uploads store (through the outbound
                         client, which refuses private and loopback addresses); without it,
                         attachments keep their remote addresses
      --author-role <role>
                         role of the users made for the file's authors (default subscriber)
  -o, --output <file>    write the export to this file instead of standard output

Users options (with --data, --storage or --postgres; a --data file must exist):
      --login <login>    the user (login or email) whose application passwords are meant
      --name <app>       name of the application password to create (default 'quire users')
      --uuid <uuid>      the application password to revoke (see app-password list)
  -h, --help             show this help
  -v, --version          print quire's version
`;
