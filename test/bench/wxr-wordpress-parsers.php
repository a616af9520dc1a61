<?php
// Runs the WordPress importer plugin's own WXR parsers (SimpleXML, XML, regex) on a file and prints what each read,
// as JSON. Usage: php wxr-wordpress-parsers.php <plugin src/parsers folder> <file.xml>
class WP_Error { public $code; public $message; public $data; function __construct($c = '', $m = '', $d = '') { $this->code = $c; $this->message = $m; $this->data = $d; } function get_error_code() { return $this->code; } function get_error_message() { return $this->message; } }
function is_wp_error($x) { return $x instanceof WP_Error; }
function __($text, $domain = null) { return $text; }
function esc_html($t) { return htmlspecialchars($t); }
$parsers = rtrim($argv[1], '/');
require $parsers . '/class-wxr-parser-simplexml.php';
require $parsers . '/class-wxr-parser-xml.php';
require $parsers . '/class-wxr-parser-regex.php';
$file = $argv[2];
$out = array();
foreach (array('simplexml' => 'WXR_Parser_SimpleXML', 'xml' => 'WXR_Parser_XML', 'regex' => 'WXR_Parser_Regex') as $name => $class) {
  $parser = new $class();
  $result = $parser->parse($file);
  if (is_wp_error($result)) { $out[$name] = array('error' => $result->get_error_code() . ': ' . $result->get_error_message()); continue; }
  $posts = array();
  foreach ($result['posts'] as $post) {
    $posts[] = array(
      'id' => (int) $post['post_id'], 'type' => $post['post_type'], 'status' => $post['status'], 'slug' => $post['post_name'],
      'title' => $post['post_title'], 'date' => $post['post_date'], 'date_gmt' => $post['post_date_gmt'], 'parent' => (int) $post['post_parent'],
      'menu_order' => (int) $post['menu_order'], 'sticky' => (int) $post['is_sticky'], 'author' => $post['post_author'],
      'content' => $post['post_content'], 'password' => $post['post_password'],
      'terms' => array_map(function ($t) { return $t['domain'] . ':' . $t['slug']; }, isset($post['terms']) ? $post['terms'] : array()),
      'meta' => array_map(function ($m) { return $m['key'] . '=' . $m['value']; }, isset($post['postmeta']) ? $post['postmeta'] : array()),
      'comments' => array_map(function ($c) { return $c['comment_id'] . '<' . $c['comment_parent'] . ':' . $c['comment_approved'] . ':' . $c['comment_author']; }, isset($post['comments']) ? $post['comments'] : array()),
      'attachment_url' => isset($post['attachment_url']) ? $post['attachment_url'] : null,
    );
  }
  $out[$name] = array(
    'version' => $result['version'], 'base_url' => $result['base_url'],
    'authors' => array_keys($result['authors']),
    'categories' => array_map(function ($c) { return $c['category_nicename'] . '<' . $c['category_parent'] . ':' . $c['cat_name']; }, $result['categories']),
    'tags' => array_map(function ($t) { return $t['tag_slug'] . ':' . $t['tag_name']; }, $result['tags']),
    'posts' => $posts,
  );
}
echo json_encode($out, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
