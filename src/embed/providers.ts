/**
 * The trusted oEmbed providers: the reference's 6.1 list, as data. A URL matching a pattern is looked up at that
 * provider's endpoint and its `html` is served as the provider sends it; anything else needs discovery and has
 * its `html` reduced to a sandboxed frame. In endpoints, `{format}` becomes `json` and `{home}` the encoded home
 * address of the site.
 */

export interface OembedProvider {
  /** Tested against the whole URL to embed. */
  pattern: RegExp;
  endpoint: string;
}

const provider = (pattern: RegExp, endpoint: string): OembedProvider => ({ pattern, endpoint });

const YOUTUBE = 'https://www.youtube.com/oembed';
const DAILYMOTION = 'https://www.dailymotion.com/services/oembed';
const FLICKR = 'https://www.flickr.com/services/oembed/';
const CROWDSIGNAL = 'https://api.crowdsignal.com/oembed';
const TWITTER = 'https://publish.twitter.com/oembed';
const KICKSTARTER = 'https://www.kickstarter.com/services/oembed';
const KINDLE_US = 'https://read.amazon.com/kp/api/oembed';
const KINDLE_UK = 'https://read.amazon.co.uk/kp/api/oembed';
const KINDLE_AU = 'https://read.amazon.com.au/kp/api/oembed';
const KINDLE_CN = 'https://read.amazon.cn/kp/api/oembed';
const SOMEECARDS = 'https://www.someecards.com/v2/oembed/';

export const DEFAULT_PROVIDERS: readonly OembedProvider[] = Object.freeze([
  provider(/https?:\/\/((m|www)\.)?youtube\.com\/watch.*/i, YOUTUBE),
  provider(/https?:\/\/((m|www)\.)?youtube\.com\/playlist.*/i, YOUTUBE),
  provider(/https?:\/\/((m|www)\.)?youtube\.com\/shorts\/*/i, YOUTUBE),
  provider(/https?:\/\/youtu\.be\/.*/i, YOUTUBE),
  provider(/https?:\/\/(.+\.)?vimeo\.com\/.*/i, 'https://vimeo.com/api/oembed.{format}'),
  provider(/https?:\/\/(www\.)?dailymotion\.com\/.*/i, DAILYMOTION),
  provider(/https?:\/\/dai\.ly\/.*/i, DAILYMOTION),
  provider(/https?:\/\/(www\.)?flickr\.com\/.*/i, FLICKR),
  provider(/https?:\/\/flic\.kr\/.*/i, FLICKR),
  provider(/https?:\/\/(.+\.)?smugmug\.com\/.*/i, 'https://api.smugmug.com/services/oembed/'),
  provider(/https?:\/\/(www\.)?scribd\.com\/(doc|document)\/.*/i, 'https://www.scribd.com/services/oembed'),
  provider(/https?:\/\/wordpress\.tv\/.*/i, 'https://wordpress.tv/oembed/'),
  provider(/https?:\/\/(.+\.)?polldaddy\.com\/.*/i, CROWDSIGNAL),
  provider(/https?:\/\/poll\.fm\/.*/i, CROWDSIGNAL),
  provider(/https?:\/\/(.+\.)?survey\.fm\/.*/i, CROWDSIGNAL),
  provider(/https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/status(es)?\/.*/i, TWITTER),
  provider(/https?:\/\/(www\.)?twitter\.com\/\w{1,15}$/i, TWITTER),
  provider(/https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/likes$/i, TWITTER),
  provider(/https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/lists\/.*/i, TWITTER),
  provider(/https?:\/\/(www\.)?twitter\.com\/\w{1,15}\/timelines\/.*/i, TWITTER),
  provider(/https?:\/\/(www\.)?twitter\.com\/i\/moments\/.*/i, TWITTER),
  provider(/https?:\/\/(www\.)?soundcloud\.com\/.*/i, 'https://soundcloud.com/oembed'),
  provider(/https?:\/\/(.+?\.)?slideshare\.net\/.*/i, 'https://www.slideshare.net/api/oembed/2'),
  provider(/https?:\/\/(open|play)\.spotify\.com\/.*/i, 'https://embed.spotify.com/oembed/'),
  provider(/https?:\/\/(.+\.)?imgur\.com\/.*/i, 'https://api.imgur.com/oembed'),
  provider(/https?:\/\/(www\.)?issuu\.com\/.+\/docs\/.+/i, 'https://issuu.com/oembed_wp'),
  provider(/https?:\/\/(www\.)?mixcloud\.com\/.*/i, 'https://www.mixcloud.com/oembed'),
  provider(/https?:\/\/(www\.|embed\.)?ted\.com\/talks\/.*/i, 'https://www.ted.com/services/v1/oembed.{format}'),
  provider(/https?:\/\/(www\.)?(animoto|video214)\.com\/play\/.*/i, 'https://animoto.com/oembeds/create'),
  provider(/https?:\/\/(.+)\.tumblr\.com\/.*/i, 'https://www.tumblr.com/oembed/1.0'),
  provider(/https?:\/\/(www\.)?kickstarter\.com\/projects\/.*/i, KICKSTARTER),
  provider(/https?:\/\/kck\.st\/.*/i, KICKSTARTER),
  provider(/https?:\/\/cloudup\.com\/.*/i, 'https://cloudup.com/oembed'),
  provider(/https?:\/\/(www\.)?reverbnation\.com\/.*/i, 'https://www.reverbnation.com/oembed'),
  provider(/https?:\/\/videopress\.com\/v\/.*/, 'https://public-api.wordpress.com/oembed/?for={home}'),
  provider(/https?:\/\/(www\.)?reddit\.com\/r\/[^/]+\/comments\/.*/i, 'https://www.reddit.com/oembed'),
  provider(/https?:\/\/(www\.)?speakerdeck\.com\/.*/i, 'https://speakerdeck.com/oembed.{format}'),
  provider(/https?:\/\/(www\.)?screencast\.com\/.*/i, 'https://api.screencast.com/external/oembed'),
  provider(/https?:\/\/([a-z0-9-]+\.)?amazon\.(com|com\.mx|com\.br|ca)\/.*/i, KINDLE_US),
  provider(/https?:\/\/([a-z0-9-]+\.)?amazon\.(co\.uk|de|fr|it|es|in|nl|ru)\/.*/i, KINDLE_UK),
  provider(/https?:\/\/([a-z0-9-]+\.)?amazon\.(co\.jp|com\.au)\/.*/i, KINDLE_AU),
  provider(/https?:\/\/([a-z0-9-]+\.)?amazon\.cn\/.*/i, KINDLE_CN),
  provider(/https?:\/\/(www\.)?a\.co\/.*/i, KINDLE_US),
  provider(/https?:\/\/(www\.)?amzn\.to\/.*/i, KINDLE_US),
  provider(/https?:\/\/(www\.)?amzn\.eu\/.*/i, KINDLE_UK),
  provider(/https?:\/\/(www\.)?amzn\.in\/.*/i, 'https://read.amazon.in/kp/api/oembed'),
  provider(/https?:\/\/(www\.)?amzn\.asia\/.*/i, KINDLE_AU),
  provider(/https?:\/\/(www\.)?z\.cn\/.*/i, KINDLE_CN),
  provider(/https?:\/\/www\.someecards\.com\/.+-cards\/.+/i, SOMEECARDS),
  provider(/https?:\/\/www\.someecards\.com\/usercards\/viewcard\/.+/i, SOMEECARDS),
  provider(/https?:\/\/some\.ly\/.+/i, SOMEECARDS),
  provider(/https?:\/\/(www\.)?tiktok\.com\/.*\/video\/.*/i, 'https://www.tiktok.com/oembed'),
  provider(/https?:\/\/([a-z]{2}|www)\.pinterest\.com(\.(au|mx))?\/.*/i, 'https://www.pinterest.com/oembed.json'),
  provider(/https?:\/\/(www\.)?wolframcloud\.com\/obj\/.+/i, 'https://www.wolframcloud.com/oembed'),
  provider(/https?:\/\/pca\.st\/.+/i, 'https://pca.st/oembed.json'),
].map((entry) => Object.freeze(entry)));

/** The endpoint of the first provider whose pattern matches the URL, ready to fetch; null when none does. */
export function trustedEndpoint(url: string, providers: readonly OembedProvider[], home: string): string | null {
  for (const { pattern, endpoint } of providers) {
    // A global or sticky pattern keeps state between tests; a fresh copy never does.
    const matcher = pattern.global || pattern.sticky ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')) : pattern;
    if (matcher.test(url)) return endpoint.replaceAll('{format}', 'json').replaceAll('{home}', encodeURIComponent(home));
  }
  return null;
}
