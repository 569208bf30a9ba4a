<?php
/**
 * Berth's WordPress helper: WordPress operations through WordPress's own code (no WP-CLI), run by the
 * agent inside a site container:
 *
 *   php berth-helper.php COMMAND [JSON]      (JSON: an object; "-" reads it from stdin; default {})
 *
 * stdout carries exactly one JSON object, on one line:
 *   {"ok":true,"data":{...}}                                   exit 0
 *   {"ok":false,"error":{"code":"...","message":"...","details":{...}}}
 *                                                              exit 2 (bad command or input), else 1
 * Whatever WordPress, a plugin or PHP prints goes to stderr. Run it as the files' owner (www-data)
 * so what it writes (wp-config.php, plugins, themes, uploads) belongs to the site.
 *
 * Every input may carry "path": the WordPress directory (default BERTH_WP_PATH, else /var/www/html).
 * Commands, inputs and outputs: shared/wordpress/README.md. Defining BERTH_HELPER_LIBRARY before
 * including this file loads the functions without running a command (the tests use it).
 */

declare(strict_types=1);

const BERTH_HELPER_VERSION = 1;
const BERTH_LANGUAGES_SOURCE = '/usr/src/wordpress-languages';

final class BerthHelperError extends Exception
{
    /** @param array<string, mixed> $details */
    public function __construct(public readonly string $errorCode, string $message, public readonly array $details = [])
    {
        parent::__construct($message);
    }
}

// ---------------------------------------------------------------------------------------------------
// Search-replace that keeps PHP-serialized data valid
// ---------------------------------------------------------------------------------------------------

/**
 * Replaces strings in a value that may be PHP-serialized, at any depth, without ever unserializing
 * it into objects: serialized data is parsed token by token (N b i d s S a O C E r R), every string
 * token's bytes are replaced (a string that is itself serialized data is rewritten the same way,
 * recursively) and written back with its new byte length. Arrays and objects of any class keep their
 * structure, keys, property names and scalars byte for byte; only their string values change, so a
 * class that is not even loaded here (an __PHP_Incomplete_Class to unserialize()) is handled like an
 * array. What cannot be rewritten safely is left as it is and counted:
 *  - `C:` values (classes implementing Serializable: a class-defined format that may carry its own
 *    lengths) and `S:` (escaped) strings that contain a search string: `skipped`;
 *  - a rewrite that unserialize() (with allowed_classes => false: no class is ever instantiated) does
 *    not accept: the original is kept, `invalid`.
 * A string that does not parse as serialized data is plain text: replaced as text.
 * With json_escaped (default true), the JSON-escaped forms of the strings (http:\/\/host) are
 * replaced too.
 */
final class BerthReplacer
{
    /** @var list<array{0: string, 1: string}> */
    private array $pairs = [];
    public int $replacements = 0;
    public int $serialized = 0;
    public int $skipped = 0;
    public int $invalid = 0;

    /** @param list<array{0: string, 1: string}> $pairs */
    public function __construct(array $pairs, bool $jsonEscaped = true)
    {
        foreach ($pairs as [$old, $new]) {
            if ($old === '') {
                throw new BerthHelperError('INVALID_INPUT', 'a search string is empty', ['field' => 'old']);
            }
            $this->pairs[] = [$old, $new];
            $escapedOld = str_replace('/', '\\/', $old);
            if ($jsonEscaped && $escapedOld !== $old) {
                $this->pairs[] = [$escapedOld, str_replace('/', '\\/', $new)];
            }
        }
    }

    /** @return list<string> every string searched for (the JSON-escaped forms too) */
    public function searchStrings(): array
    {
        return array_values(array_unique(array_map(static fn (array $pair): string => $pair[0], $this->pairs)));
    }

    public function contains(string $value): bool
    {
        foreach ($this->pairs as [$old]) {
            if (str_contains($value, $old)) {
                return true;
            }
        }
        return false;
    }

    public function replace(string $value, int $depth = 0): string
    {
        if (!$this->contains($value)) {
            return $value;
        }
        if ($depth < 32) {
            $rewritten = $this->rewriteSerialized($value, $depth);
            if ($rewritten !== null) {
                return $rewritten;
            }
        }
        return $this->replaceText($value);
    }

    private function replaceText(string $value): string
    {
        foreach ($this->pairs as [$old, $new]) {
            $value = str_replace($old, $new, $value, $count);
            $this->replacements += $count;
        }
        return $value;
    }

    /** The rewritten serialization, or null when $value is not serialized data (then it is plain text). */
    private function rewriteSerialized(string $value, int $depth): ?string
    {
        // like WordPress's maybe_unserialize(): surrounding whitespace is tolerated and kept
        $core = trim($value);
        if (!self::looksSerialized($core)) {
            return null;
        }
        $before = [$this->replacements, $this->serialized, $this->skipped, $this->invalid];
        try {
            $pos = 0;
            $out = $this->token($core, $pos, $depth, 0);
            if ($pos !== strlen($core)) {
                throw new UnexpectedValueException('trailing bytes');
            }
        } catch (UnexpectedValueException) {
            [$this->replacements, $this->serialized, $this->skipped, $this->invalid] = $before;
            return null;
        }
        // the check that PHP reads the result as it read the original (enums are refused by
        // allowed_classes => false: then the grammar alone vouches for both)
        if (self::isValidSerialization($core) && !self::isValidSerialization($out)) {
            [$this->replacements, $this->serialized, $this->skipped, $this->invalid] = $before;
            $this->invalid++;
            return $value;
        }
        $this->serialized++;
        $start = strpos($value, $core[0]);
        return substr($value, 0, (int) $start) . $out . substr($value, (int) $start + strlen($core));
    }

    private static function looksSerialized(string $data): bool
    {
        return strlen($data) >= 2 && (bool) preg_match('/^(?:N;|[bidrR]:|[sSaOCE]:\d)/', $data);
    }

    private static function isValidSerialization(string $data): bool
    {
        if ($data === 'b:0;') {
            return true;
        }
        set_error_handler(static fn (): bool => true);
        try {
            return unserialize($data, ['allowed_classes' => false]) !== false;
        } catch (Throwable) {
            return false;
        } finally {
            restore_error_handler();
        }
    }

    /** Reads one serialized value at $pos, returns it rewritten; throws on anything unexpected. */
    private function token(string $s, int &$pos, int $depth, int $nesting): string
    {
        if ($nesting > 4096) {
            throw new UnexpectedValueException('too deep');
        }
        $type = $s[$pos] ?? '';
        switch ($type) {
            case 'N':
                return $this->literal($s, $pos, '/\GN;/');
            case 'b':
                return $this->literal($s, $pos, '/\Gb:[01];/');
            case 'i':
                return $this->literal($s, $pos, '/\Gi:[+-]?\d+;/');
            case 'd':
                return $this->literal($s, $pos, '/\Gd:(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[+-]?INF|NAN);/');
            case 'r':
            case 'R':
                return $this->literal($s, $pos, '/\G[rR]:\d+;/');
            case 's':
                $bytes = $this->quoted($s, $pos, 's');
                $this->expect($s, $pos, ';');
                $new = $this->replace($bytes, $depth + 1);
                return 's:' . strlen($new) . ':"' . $new . '";';
            case 'S':
                $start = $pos;
                $length = $this->header($s, $pos, 'S');
                $this->expect($s, $pos, ':"');
                for ($i = 0; $i < $length; $i++) {
                    $pos += ($s[$pos] ?? '') === '\\' ? 3 : 1;
                }
                $this->expect($s, $pos, '";');
                return $this->opaque(substr($s, $start, $pos - $start));
            case 'E':
                $name = $this->quoted($s, $pos, 'E');
                $this->expect($s, $pos, ';');
                return 'E:' . strlen($name) . ':"' . $name . '";';
            case 'a':
                $count = $this->header($s, $pos, 'a');
                $this->expect($s, $pos, ':{');
                $out = 'a:' . $count . ':{';
                for ($i = 0; $i < $count; $i++) {
                    $out .= $this->key($s, $pos);
                    $out .= $this->token($s, $pos, $depth, $nesting + 1);
                }
                $this->expect($s, $pos, '}');
                return $out . '}';
            case 'O':
                $class = $this->quoted($s, $pos, 'O');
                $this->expect($s, $pos, ':');
                $count = $this->number($s, $pos);
                $this->expect($s, $pos, ':{');
                $out = 'O:' . strlen($class) . ':"' . $class . '":' . $count . ':{';
                for ($i = 0; $i < $count; $i++) {
                    $out .= $this->key($s, $pos);
                    $out .= $this->token($s, $pos, $depth, $nesting + 1);
                }
                $this->expect($s, $pos, '}');
                return $out . '}';
            case 'C':
                $start = $pos;
                $this->quoted($s, $pos, 'C');
                $this->expect($s, $pos, ':');
                $length = $this->number($s, $pos);
                $this->expect($s, $pos, ':{');
                $pos += $length;
                $this->expect($s, $pos, '}');
                return $this->opaque(substr($s, $start, $pos - $start));
            default:
                throw new UnexpectedValueException("unexpected '$type' at $pos");
        }
    }

    /** An array key or a property name: kept as it is (i: or s:). */
    private function key(string $s, int &$pos): string
    {
        if (($s[$pos] ?? '') === 'i') {
            return $this->literal($s, $pos, '/\Gi:[+-]?\d+;/');
        }
        $name = $this->quoted($s, $pos, 's');
        $this->expect($s, $pos, ';');
        return 's:' . strlen($name) . ':"' . $name . '";';
    }

    private function opaque(string $token): string
    {
        if ($this->contains($token)) {
            $this->skipped++;
        }
        return $token;
    }

    private function literal(string $s, int &$pos, string $pattern): string
    {
        if (!preg_match($pattern, $s, $m, 0, $pos)) {
            throw new UnexpectedValueException("bad token at $pos");
        }
        $pos += strlen($m[0]);
        return $m[0];
    }

    /** `T:<n>` → n */
    private function header(string $s, int &$pos, string $type): int
    {
        $this->expect($s, $pos, $type . ':');
        return $this->number($s, $pos);
    }

    private function number(string $s, int &$pos): int
    {
        if (!preg_match('/\G\d+/', $s, $m, 0, $pos)) {
            throw new UnexpectedValueException("number expected at $pos");
        }
        $pos += strlen($m[0]);
        return (int) $m[0];
    }

    /** `T:<n>:"<n bytes>"` → the bytes */
    private function quoted(string $s, int &$pos, string $type): string
    {
        $length = $this->header($s, $pos, $type);
        $this->expect($s, $pos, ':"');
        if ($pos + $length > strlen($s)) {
            throw new UnexpectedValueException("string past the end at $pos");
        }
        $bytes = substr($s, $pos, $length);
        $pos += $length;
        $this->expect($s, $pos, '"');
        return $bytes;
    }

    private function expect(string $s, int &$pos, string $what): void
    {
        if (substr($s, $pos, strlen($what)) !== $what) {
            throw new UnexpectedValueException("'$what' expected at $pos");
        }
        $pos += strlen($what);
    }

    /** @return array{replacements: int, serialized_values: int, skipped_values: int, invalid_values: int} */
    public function stats(): array
    {
        return [
            'replacements' => $this->replacements,
            'serialized_values' => $this->serialized,
            'skipped_values' => $this->skipped,
            'invalid_values' => $this->invalid,
        ];
    }
}

// ---------------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------------

/** @param array<string, mixed> $in */
function berth_string(array $in, string $field, ?string $default = null, int $max = 10000): string
{
    $value = $in[$field] ?? $default;
    if (!is_string($value)) {
        throw new BerthHelperError('INVALID_INPUT', $value === null ? "$field is required" : "$field must be a string", ['field' => $field]);
    }
    if (strlen($value) > $max) {
        throw new BerthHelperError('INVALID_INPUT', "$field is longer than $max bytes", ['field' => $field]);
    }
    return $value;
}

/** @param array<string, mixed> $in */
function berth_bool(array $in, string $field, bool $default): bool
{
    $value = $in[$field] ?? $default;
    if (!is_bool($value)) {
        throw new BerthHelperError('INVALID_INPUT', "$field must be true or false", ['field' => $field]);
    }
    return $value;
}

/** @param array<string, mixed> $in */
function berth_url(array $in, string $field, ?string $default = null): string
{
    $url = berth_string($in, $field, $default, 2000);
    $parts = parse_url($url);
    if (!is_array($parts) || !in_array($parts['scheme'] ?? '', ['http', 'https'], true) || empty($parts['host']) || isset($parts['query']) || isset($parts['fragment'])) {
        throw new BerthHelperError('INVALID_INPUT', "$field must be an http(s) URL without query or fragment", ['field' => $field]);
    }
    return rtrim($url, '/');
}

/** @param array<string, mixed> $in */
function berth_wordpress_path(array $in): string
{
    $path = berth_string($in, 'path', getenv('BERTH_WP_PATH') ?: '/var/www/html', 1000);
    if ($path === '' || $path[0] !== '/') {
        throw new BerthHelperError('INVALID_INPUT', 'path must be absolute', ['field' => 'path']);
    }
    return rtrim($path, '/');
}

// ---------------------------------------------------------------------------------------------------
// Commands that do not load WordPress
// ---------------------------------------------------------------------------------------------------

/** @param array<string, mixed> $in */
function berth_core_version(array $in, string $path): array
{
    $file = "$path/wp-includes/version.php";
    if (!is_file($file)) {
        throw new BerthHelperError('NO_WORDPRESS', "no WordPress in $path (wp-includes/version.php is missing)");
    }
    $read = static function (string $file): array {
        $wp_version = $wp_db_version = $required_php_version = $required_mysql_version = null;
        include $file;
        return [$wp_version, $wp_db_version, $required_php_version, $required_mysql_version];
    };
    [$version, $dbVersion, $requiredPhp, $requiredMysql] = $read($file);
    return [
        'version' => $version,
        'db_version' => $dbVersion,
        'required_php_version' => $requiredPhp,
        'required_mysql_version' => $requiredMysql,
        'php_version' => PHP_VERSION,
        'php' => PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION,
        'helper_version' => BERTH_HELPER_VERSION,
    ];
}

const BERTH_SALT_NAMES = ['AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'];

function berth_random_salt(): string
{
    // the characters of WordPress's secret-key service
    $chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*()-_ []{}<>~`+=,.;:/?|';
    $salt = '';
    for ($i = 0; $i < 64; $i++) {
        $salt .= $chars[random_int(0, strlen($chars) - 1)];
    }
    return $salt;
}

/**
 * Writes wp-config.php (mode 0640, atomically). The salts of an existing file are kept (users stay
 * signed in when the URL or the database password changes) unless rotate_salts is true.
 *
 * @param array<string, mixed> $in
 */
function berth_write_config(array $in, string $path): array
{
    $url = berth_url($in, 'url');
    $config = [
        'DB_NAME' => berth_string($in, 'db_name', null, 64),
        'DB_USER' => berth_string($in, 'db_user', null, 80),
        'DB_PASSWORD' => berth_string($in, 'db_password', null, 500),
        'DB_HOST' => berth_string($in, 'db_host', null, 300),
        'DB_CHARSET' => 'utf8mb4',
        'DB_COLLATE' => '',
        'WP_HOME' => $url,
        'WP_SITEURL' => berth_url($in, 'siteurl', $url),
        // the files belong to the user PHP runs as: no FTP credentials for updates and installs
        'FS_METHOD' => 'direct',
    ];
    $prefix = berth_string($in, 'table_prefix', 'wp_', 40);
    if (!preg_match('/^[A-Za-z0-9_]+$/', $prefix)) {
        throw new BerthHelperError('INVALID_INPUT', 'table_prefix may hold only letters, digits and _', ['field' => 'table_prefix']);
    }
    $constants = $in['constants'] ?? [];
    if (!is_array($constants)) {
        throw new BerthHelperError('INVALID_INPUT', 'constants must be an object', ['field' => 'constants']);
    }
    foreach ($constants as $name => $value) {
        if (!is_string($name) || !preg_match('/^[A-Z][A-Z0-9_]{0,63}$/', $name) || isset($config[$name]) || in_array($name, BERTH_SALT_NAMES, true) || $name === 'ABSPATH') {
            throw new BerthHelperError('INVALID_INPUT', "constants: $name is not a constant that may be set here", ['field' => 'constants']);
        }
        if (!is_scalar($value)) {
            throw new BerthHelperError('INVALID_INPUT', "constants: $name must be a string, number or boolean", ['field' => 'constants']);
        }
        $config[$name] = $value;
    }

    $file = "$path/wp-config.php";
    $existing = is_file($file) ? (string) file_get_contents($file) : '';
    $salts = [];
    $kept = $existing !== '' && !berth_bool($in, 'rotate_salts', false);
    foreach (BERTH_SALT_NAMES as $name) {
        $salt = null;
        if ($kept && preg_match('/define\(\s*\'' . $name . '\',\s*(\'(?:[^\'\\\\]|\\\\.)*\')\s*\)/', $existing, $m)) {
            $salt = stripcslashes(substr($m[1], 1, -1));
        }
        if ($salt === null) {
            $kept = false;
        }
        $salts[$name] = $salt ?? berth_random_salt();
    }

    $php = "<?php\n// Written by Berth's helper (write-config); changes here are replaced by the next write.\n";
    foreach ($config as $name => $value) {
        $php .= 'define(' . var_export($name, true) . ', ' . var_export($value, true) . ");\n";
    }
    foreach ($salts as $name => $value) {
        $php .= 'define(' . var_export($name, true) . ', ' . var_export($value, true) . ");\n";
    }
    $php .= '$table_prefix = ' . var_export($prefix, true) . ";\n";
    $php .= "if (!defined('ABSPATH')) {\n    define('ABSPATH', __DIR__ . '/');\n}\nrequire_once ABSPATH . 'wp-settings.php';\n";

    $temporary = "$path/.wp-config.php." . bin2hex(random_bytes(6));
    $old = umask(0o027);
    try {
        if (file_put_contents($temporary, $php) !== strlen($php) || !chmod($temporary, 0o640) || !rename($temporary, $file)) {
            @unlink($temporary);
            throw new BerthHelperError('WRITE_FAILED', "cannot write $file");
        }
    } finally {
        umask($old);
    }
    return ['path' => $file, 'created' => $existing === '', 'salts' => $kept ? 'kept' : 'generated', 'mode' => '0640'];
}

/** @param array<string, mixed> $in */
function berth_replace_values(array $in): array
{
    $values = $in['values'] ?? null;
    if (!is_array($values) || !array_is_list($values)) {
        throw new BerthHelperError('INVALID_INPUT', 'values must be a list of strings', ['field' => 'values']);
    }
    $replacer = new BerthReplacer(berth_pairs($in), berth_bool($in, 'json_escaped', true));
    $out = [];
    foreach ($values as $value) {
        if (!is_string($value)) {
            throw new BerthHelperError('INVALID_INPUT', 'values must be a list of strings', ['field' => 'values']);
        }
        $out[] = $replacer->replace($value);
    }
    return ['values' => $out] + $replacer->stats();
}

/**
 * `old` and `new`, or `pairs`: [[old, new], ...] applied in order.
 *
 * @param array<string, mixed> $in
 * @return list<array{0: string, 1: string}>
 */
function berth_pairs(array $in): array
{
    if (isset($in['pairs'])) {
        $pairs = $in['pairs'];
        if (!is_array($pairs) || $pairs === [] || !array_is_list($pairs)) {
            throw new BerthHelperError('INVALID_INPUT', 'pairs must be a non-empty list of [old, new]', ['field' => 'pairs']);
        }
        foreach ($pairs as $pair) {
            if (!is_array($pair) || count($pair) !== 2 || !is_string($pair[0] ?? null) || !is_string($pair[1] ?? null) || $pair[0] === '') {
                throw new BerthHelperError('INVALID_INPUT', 'each pair must be [old, new] with a non-empty old', ['field' => 'pairs']);
            }
        }
        return array_map(static fn (array $pair): array => [$pair[0], $pair[1]], $pairs);
    }
    $old = berth_string($in, 'old', null, 2000);
    if ($old === '') {
        throw new BerthHelperError('INVALID_INPUT', 'old must not be empty', ['field' => 'old']);
    }
    return [[$old, berth_string($in, 'new', null, 2000)]];
}

// ---------------------------------------------------------------------------------------------------
// Loading WordPress
// ---------------------------------------------------------------------------------------------------

/**
 * What has to be in place before wp-load.php: a CLI request that looks like one to the site, and
 * hooks (WordPress picks up pre-set $wp_filter entries) that turn wp_die() and the redirect to the
 * installer into errors instead of HTML and exit.
 *
 * @param array<string, mixed> $in
 */
function berth_prepare_wordpress(string $path, bool $installing, array $in): void
{
    if (!is_file("$path/wp-load.php")) {
        throw new BerthHelperError('NO_WORDPRESS', "no WordPress in $path");
    }
    if (!is_file("$path/wp-config.php")) {
        throw new BerthHelperError('NOT_CONFIGURED', "$path/wp-config.php is missing: run write-config first");
    }
    $host = 'localhost';
    $https = false;
    if (isset($in['url']) && is_string($in['url'])) {
        $host = (string) (parse_url($in['url'], PHP_URL_HOST) ?: 'localhost');
        $https = parse_url($in['url'], PHP_URL_SCHEME) === 'https';
    }
    $_SERVER['HTTP_HOST'] = $_SERVER['SERVER_NAME'] = $host;
    $_SERVER['REQUEST_METHOD'] = 'GET';
    $_SERVER['REQUEST_URI'] = '/';
    $_SERVER['SERVER_PROTOCOL'] = 'HTTP/1.1';
    $_SERVER['REMOTE_ADDR'] = '127.0.0.1';
    if ($https) {
        $_SERVER['HTTPS'] = 'on';
    }
    if ($installing) {
        define('WP_INSTALLING', true);
    }
    $GLOBALS['wp_filter']['wp_die_handler'][10][] = [
        'function' => static fn () => static function ($message, $title = '', $args = []): void {
            if (is_wp_error($message)) {
                $message = $message->get_error_message();
            }
            $text = trim(html_entity_decode(strip_tags((string) $message), ENT_QUOTES));
            if (str_contains($text, 'database connection')) {
                $text .= berth_database_cause();
            }
            throw new BerthHelperError('WORDPRESS_ERROR', $text !== '' ? $text : 'WordPress stopped (wp_die)');
        },
        'accepted_args' => 1,
    ];
    $GLOBALS['wp_filter']['wp_redirect'][10][] = [
        'function' => static function ($location) {
            if (is_string($location) && str_contains($location, 'wp-admin/install.php')) {
                throw new BerthHelperError('NOT_INSTALLED', 'WordPress is not installed: run install first');
            }
            return $location;
        },
        'accepted_args' => 1,
    ];
    // a helper run never waits on api.wordpress.org (these run after plugin and theme installs)
    $GLOBALS['berth_offline_hooks'] = ['wp_version_check', 'wp_update_plugins', 'wp_update_themes'];
}

/**
 * WordPress says "Error establishing a database connection" both when it cannot connect and when it
 * connects but cannot read its options table; the reason it kept is what an operator needs.
 * MariaDB's messages name the user and host, never the password.
 */
function berth_database_cause(): string
{
    $causes = [];
    $wpdb = $GLOBALS['wpdb'] ?? null;
    if (is_object($wpdb)) {
        $error = $wpdb->error ?? null;
        if (is_wp_error($error)) {
            $error = $error->get_error_message();
        }
        if (is_string($error) && $error !== '') {
            $causes[] = trim(html_entity_decode(strip_tags($error), ENT_QUOTES));
        }
        if (is_string($wpdb->last_error ?? null) && $wpdb->last_error !== '') {
            $causes[] = 'last query: ' . $wpdb->last_error;
        }
    }
    if (function_exists('mysqli_connect_error') && mysqli_connect_error()) {
        $causes[] = 'connect: ' . mysqli_connect_errno() . ' ' . mysqli_connect_error();
    }
    $causes = array_values(array_unique(array_filter($causes, static fn ($cause) => !str_contains($cause, 'Error establishing a database connection') || strlen($cause) > 60)));
    return $causes === [] ? '' : ' (' . substr(implode('; ', $causes), 0, 600) . ')';
}

/** wp_install() e-mails the admin a "new site" notice (pluggable): the control plane tells its users itself. */
function berth_quiet_install(): void
{
    if (!function_exists('wp_new_blog_notification')) {
        function wp_new_blog_notification($blog_title, $blog_url, $user_id, $password): void
        {
        }
    }
}

function berth_require_admin(): void
{
    require_once ABSPATH . 'wp-admin/includes/admin.php';
    require_once ABSPATH . 'wp-admin/includes/class-wp-upgrader.php';
    foreach ($GLOBALS['berth_offline_hooks'] ?? [] as $hook) {
        remove_action('upgrader_process_complete', $hook);
    }
}

/** The first administrator: plugin and theme changes run as an admin would make them in wp-admin. */
function berth_act_as_admin(): void
{
    $admins = get_users(['role' => 'administrator', 'number' => 1, 'orderby' => 'ID', 'fields' => 'ID']);
    if ($admins) {
        wp_set_current_user((int) $admins[0]);
    }
}

function berth_fail_on_wp_error(mixed $result, string $code): void
{
    if (is_wp_error($result)) {
        throw new BerthHelperError($code, $result->get_error_message(), ['wp_error' => $result->get_error_code()]);
    }
}

// ---------------------------------------------------------------------------------------------------
// Commands that run inside WordPress
// ---------------------------------------------------------------------------------------------------

/** @return array{url: string, expires_at: string} */
function berth_password_link(WP_User $user): array
{
    $key = get_password_reset_key($user);
    berth_fail_on_wp_error($key, 'WORDPRESS_ERROR');
    $lifetime = (int) apply_filters('password_reset_expiration', DAY_IN_SECONDS);
    return [
        'url' => network_site_url('wp-login.php?action=rp&key=' . $key . '&login=' . rawurlencode($user->user_login), 'login'),
        'expires_at' => gmdate('Y-m-d\TH:i:s\Z', time() + $lifetime),
    ];
}

function berth_user(string $login): WP_User
{
    $user = get_user_by('login', $login);
    if (!$user) {
        throw new BerthHelperError('NOT_FOUND', "no user $login", ['field' => 'login']);
    }
    return $user;
}

/** Copies a locale's core translations from the image into wp-content/languages; false when the image has none. */
function berth_install_language(string $locale): bool
{
    if ($locale === 'en_US') {
        return true;
    }
    if (!is_dir(BERTH_LANGUAGES_SOURCE)) {
        return false;
    }
    $files = [];
    foreach (["$locale", "admin-$locale", "admin-network-$locale", "continents-cities-$locale"] as $name) {
        foreach (['mo', 'po', 'l10n.php'] as $extension) {
            if (is_file(BERTH_LANGUAGES_SOURCE . "/$name.$extension")) {
                $files[] = "$name.$extension";
            }
        }
    }
    if (!in_array("$locale.mo", $files, true)) {
        $available = array_map(static fn (string $f): string => basename($f, '.mo'), glob(BERTH_LANGUAGES_SOURCE . '/[a-z]*.mo') ?: []);
        $available = array_values(array_filter($available, static fn (string $n): bool => !str_starts_with($n, 'admin-') && !str_starts_with($n, 'continents-')));
        throw new BerthHelperError('INVALID_INPUT', "no translation for locale $locale", ['field' => 'locale', 'available' => $available]);
    }
    wp_mkdir_p(WP_LANG_DIR);
    foreach ($files as $file) {
        if (!copy(BERTH_LANGUAGES_SOURCE . "/$file", WP_LANG_DIR . "/$file")) {
            throw new BerthHelperError('WRITE_FAILED', 'cannot copy ' . $file . ' into ' . WP_LANG_DIR);
        }
    }
    return true;
}

/**
 * wp_install() with a random admin password that nobody sees: the result carries a one-time link to
 * set it instead. Installing an installed site changes nothing and answers a fresh link for the
 * admin (a retry whose first answer was lost still gets one).
 *
 * @param array<string, mixed> $in
 */
function berth_install(array $in): array
{
    global $wpdb, $wp_version;
    $title = berth_string($in, 'title', null, 200);
    $login = berth_string($in, 'admin_user', null, 60);
    $email = berth_string($in, 'admin_email', null, 100);
    $url = berth_url($in, 'url');
    $locale = berth_string($in, 'locale', 'en_US', 20);
    $public = berth_bool($in, 'public', true);
    $permalinks = berth_string($in, 'permalink_structure', '/%postname%/', 200);
    if (trim($title) === '') {
        throw new BerthHelperError('INVALID_INPUT', 'title must not be empty', ['field' => 'title']);
    }
    if ($login === '' || sanitize_user($login, true) !== $login) {
        throw new BerthHelperError('INVALID_INPUT', 'admin_user may hold only letters, digits, spaces and _ . - @', ['field' => 'admin_user']);
    }
    if (!is_email($email)) {
        throw new BerthHelperError('INVALID_INPUT', 'admin_email is not an e-mail address', ['field' => 'admin_email']);
    }
    if (!preg_match('/^[a-z]{2,3}(?:_[A-Z]{2})?(?:_[a-z0-9]+)?$/', $locale)) {
        throw new BerthHelperError('INVALID_INPUT', 'locale must look like en_US', ['field' => 'locale']);
    }

    $wpdb->suppress_errors(true);
    $installed = is_blog_installed();
    $wpdb->suppress_errors(false);
    if ($installed) {
        $user = get_user_by('login', $login);
        if (!$user || !in_array('administrator', $user->roles, true)) {
            throw new BerthHelperError('CONFLICT', "WordPress is installed already and $login is not an administrator of it");
        }
        return ['created' => false, 'user_id' => $user->ID, 'admin_user' => $login, 'url' => home_url(), 'locale' => get_locale(), 'version' => $wp_version, 'password_link' => berth_password_link($user), 'inventory' => berth_installed_inventory($in)];
    }

    $language = berth_install_language($locale) && $locale !== 'en_US' ? $locale : '';
    if ($language !== '') {
        load_default_textdomain($language);
        $GLOBALS['wp_locale'] = new WP_Locale();
    }
    // wp_install() probes the site over HTTP (pretty permalinks): no loopback from here, the edge
    // serves pretty permalinks anyway, so the structure is set below
    $offline = static fn () => new WP_Error('berth_offline', 'no HTTP during install');
    add_filter('pre_http_request', $offline);
    $password = wp_generate_password(40, true, true);
    // One commit for the hundreds of rows wp_install writes (in autocommit each row is a flush of
    // the server's log, most of the install's time); its CREATE TABLEs commit on their own. A run
    // that fails rolls its rows back, and the next run installs afresh.
    $wpdb->query('SET autocommit = 0');
    try {
        $result = wp_install($title, $login, $email, $public, '', wp_slash($password), $language);
        $password = null;
        remove_filter('pre_http_request', $offline);
        if (empty($result['user_id'])) {
            throw new BerthHelperError('INSTALL_FAILED', 'wp_install did not create the administrator');
        }
        update_option('siteurl', $url);
        update_option('home', $url);
        update_option('permalink_structure', $permalinks);
        flush_rewrite_rules(false);
        if ($wpdb->query('COMMIT') === false) {
            throw new BerthHelperError('INSTALL_FAILED', 'the install could not be committed: ' . $wpdb->last_error);
        }
    } catch (Throwable $e) {
        $wpdb->query('ROLLBACK');
        throw $e;
    } finally {
        $wpdb->query('SET autocommit = 1');
    }
    $user = get_user_by('id', (int) $result['user_id']);
    return ['created' => true, 'user_id' => $user->ID, 'admin_user' => $user->user_login, 'url' => $url, 'locale' => $language ?: 'en_US', 'version' => $wp_version, 'password_link' => berth_password_link($user), 'inventory' => berth_installed_inventory($in)];
}

/**
 * The inventory of the site just installed, read in the same run (the control plane records it
 * without loading WordPress a second time); the admin includes come with upgrade.php.
 *
 * @param array<string, mixed> $in
 */
function berth_installed_inventory(array $in): array
{
    require_once ABSPATH . 'wp-admin/includes/plugin.php';
    wp_clean_plugins_cache(false);
    return berth_inventory($in, rtrim(ABSPATH, '/'));
}

function berth_status(): array
{
    global $wpdb, $wp_version;
    $wpdb->suppress_errors(true);
    $installed = is_blog_installed();
    $wpdb->suppress_errors(false);
    if (!$installed) {
        return ['installed' => false, 'version' => $wp_version];
    }
    return [
        'installed' => true,
        'version' => $wp_version,
        'db_version' => (int) get_option('db_version'),
        'home' => get_option('home'),
        'siteurl' => get_option('siteurl'),
        'blogname' => get_option('blogname'),
        'locale' => get_locale(),
        'theme' => get_stylesheet(),
        'active_plugins' => array_values((array) get_option('active_plugins', [])),
    ];
}

/**
 * What the control plane shows of a site in one run (one WordPress load instead of four): core,
 * PHP, the site's identity, its plugins and themes.
 */
function berth_inventory(array $in, string $path): array
{
    global $wpdb;
    return [
        'version' => $GLOBALS['wp_version'],
        'db_version' => (int) get_option('db_version'),
        'php_version' => PHP_VERSION,
        'php' => PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION,
        'mysql_version' => (string) $wpdb->db_version(),
        'home' => get_option('home'),
        'siteurl' => get_option('siteurl'),
        'blogname' => get_option('blogname'),
        'locale' => get_locale(),
        'theme' => get_stylesheet(),
    ] + berth_plugin_list() + berth_theme_list();
}

/** @param array<string, mixed> $in */
function berth_option_get(array $in): array
{
    $name = berth_string($in, 'name', null, 191);
    $missing = new stdClass();
    $value = get_option($name, $missing);
    return $value === $missing ? ['name' => $name, 'exists' => false, 'value' => null] : ['name' => $name, 'exists' => true, 'value' => $value];
}

/** @param array<string, mixed> $in */
function berth_option_set(array $in): array
{
    $name = berth_string($in, 'name', null, 191);
    if (!array_key_exists('value', $in)) {
        throw new BerthHelperError('INVALID_INPUT', 'value is required', ['field' => 'value']);
    }
    $autoload = $in['autoload'] ?? null;
    if ($autoload !== null && !is_bool($autoload)) {
        throw new BerthHelperError('INVALID_INPUT', 'autoload must be true or false', ['field' => 'autoload']);
    }
    $updated = update_option($name, $in['value'], $autoload);
    return ['name' => $name, 'updated' => $updated, 'value' => get_option($name)];
}

function berth_quote_name(string $name): string
{
    return '`' . str_replace('`', '``', $name) . '`';
}

/**
 * The site's tables (its prefix), or those of `tables` if given: each must be one of them, never
 * another site's table sharing the database server.
 *
 * @param array<string, mixed> $in
 * @param list<string> $own
 * @return list<string>
 */
function berth_search_replace_tables(array $in, array $own): array
{
    if (!isset($in['tables'])) {
        return $own;
    }
    $asked = $in['tables'];
    if (!is_array($asked) || $asked === [] || !array_is_list($asked) || array_filter($asked, static fn ($t): bool => !is_string($t))) {
        throw new BerthHelperError('INVALID_INPUT', 'tables must be a non-empty list of table names', ['field' => 'tables']);
    }
    $foreign = array_values(array_diff($asked, $own));
    if ($foreign) {
        throw new BerthHelperError('INVALID_INPUT', 'not tables of this site (prefix ' . $GLOBALS['wpdb']->base_prefix . '): ' . implode(', ', $foreign), ['field' => 'tables', 'tables' => $foreign]);
    }
    return array_values(array_unique($asked));
}

/**
 * The URL rewrite of a copied site: every text column of every table of the site's prefix, values
 * rewritten by BerthReplacer (serialized data stays valid). Tables without a primary key are
 * reported, not changed.
 *
 * @param array<string, mixed> $in
 */
function berth_search_replace(array $in): array
{
    global $wpdb;
    $replacer = new BerthReplacer(berth_pairs($in), berth_bool($in, 'json_escaped', true));
    $dryRun = berth_bool($in, 'dry_run', false);
    $skipColumns = $in['skip_columns'] ?? [];
    if (!is_array($skipColumns) || array_filter($skipColumns, static fn ($c): bool => !is_string($c))) {
        throw new BerthHelperError('INVALID_INPUT', 'skip_columns must be a list of column names', ['field' => 'skip_columns']);
    }
    $tables = berth_search_replace_tables($in, $wpdb->get_col($wpdb->prepare('SHOW TABLES LIKE %s', $wpdb->esc_like($wpdb->base_prefix) . '%')));
    $likes = [];
    foreach ($replacer->searchStrings() as $search) {
        $likes[] = '%' . $wpdb->esc_like($search) . '%';
    }
    $report = [];
    $totals = ['rows_changed' => 0, 'cells_changed' => 0];
    foreach ($tables as $table) {
        $columns = $wpdb->get_results('SHOW COLUMNS FROM ' . berth_quote_name($table), ARRAY_A);
        $primary = [];
        $text = [];
        foreach ($columns as $column) {
            if ($column['Key'] === 'PRI') {
                $primary[] = $column['Field'];
            }
            if (preg_match('/char|text|blob|json/i', $column['Type']) && !in_array($column['Field'], $skipColumns, true)) {
                $text[] = $column['Field'];
            }
        }
        $entry = ['table' => $table, 'rows_changed' => 0, 'cells_changed' => 0];
        if (!$primary) {
            $report[] = $entry + ['skipped' => 'no primary key'];
            continue;
        }
        if (!$text) {
            $report[] = $entry;
            continue;
        }
        $conditions = [];
        $arguments = [];
        foreach ($text as $column) {
            foreach ($likes as $like) {
                $conditions[] = berth_quote_name($column) . ' LIKE %s';
                $arguments[] = $like;
            }
        }
        $keyList = implode(', ', array_map('berth_quote_name', $primary));
        $keys = $wpdb->get_results($wpdb->prepare("SELECT $keyList FROM " . berth_quote_name($table) . ' WHERE ' . implode(' OR ', $conditions), $arguments), ARRAY_A);
        $selected = implode(', ', array_map('berth_quote_name', array_values(array_unique([...$primary, ...$text]))));
        foreach (array_chunk($keys, 200) as $chunk) {
            $where = [];
            $whereArguments = [];
            foreach ($chunk as $key) {
                $where[] = '(' . implode(' AND ', array_map(static fn (string $c): string => berth_quote_name($c) . ' = %s', $primary)) . ')';
                array_push($whereArguments, ...array_values($key));
            }
            $rows = $wpdb->get_results($wpdb->prepare("SELECT $selected FROM " . berth_quote_name($table) . ' WHERE ' . implode(' OR ', $where), $whereArguments), ARRAY_A);
            foreach ($rows as $row) {
                $changes = [];
                foreach ($text as $column) {
                    if ($row[$column] === null) {
                        continue;
                    }
                    $new = $replacer->replace($row[$column]);
                    if ($new !== $row[$column]) {
                        $changes[$column] = $new;
                    }
                }
                if (!$changes) {
                    continue;
                }
                $entry['rows_changed']++;
                $entry['cells_changed'] += count($changes);
                if (!$dryRun) {
                    $keyValues = array_intersect_key($row, array_flip($primary));
                    if ($wpdb->update($table, $changes, $keyValues) === false) {
                        throw new BerthHelperError('DATABASE_ERROR', "updating $table failed: " . ($wpdb->last_error ?: 'the values do not fit the column'), ['table' => $table]);
                    }
                }
            }
        }
        $totals['rows_changed'] += $entry['rows_changed'];
        $totals['cells_changed'] += $entry['cells_changed'];
        $report[] = $entry;
    }
    wp_cache_flush();
    return ['dry_run' => $dryRun, 'tables' => $report] + $totals + $replacer->stats();
}

/** A plugin by file (akismet/akismet.php), directory (akismet) or single-file name (hello). */
function berth_plugin_file(string $plugin): string
{
    $plugins = get_plugins();
    if (isset($plugins[$plugin])) {
        return $plugin;
    }
    foreach (array_keys($plugins) as $file) {
        if (dirname($file) === $plugin || (dirname($file) === '.' && basename($file, '.php') === $plugin)) {
            return $file;
        }
    }
    throw new BerthHelperError('NOT_FOUND', "no plugin $plugin", ['field' => 'plugin']);
}

function berth_plugin_entry(string $file, array $data): array
{
    return [
        'plugin' => $file,
        'slug' => dirname($file) === '.' ? basename($file, '.php') : dirname($file),
        'name' => $data['Name'] ?? '',
        'version' => $data['Version'] ?? '',
        'active' => is_plugin_active($file),
    ];
}

function berth_plugin_list(): array
{
    $plugins = [];
    foreach (get_plugins() as $file => $data) {
        $plugins[] = berth_plugin_entry($file, $data);
    }
    return ['plugins' => $plugins];
}

/** @param array<string, mixed> $in */
function berth_plugin_activate(array $in): array
{
    $file = berth_plugin_file(berth_string($in, 'plugin', null, 300));
    $was = is_plugin_active($file);
    if (!$was) {
        berth_fail_on_wp_error(activate_plugin($file), 'ACTIVATION_FAILED');
    }
    return ['plugin' => $file, 'active' => is_plugin_active($file), 'changed' => !$was];
}

/** @param array<string, mixed> $in */
function berth_plugin_deactivate(array $in): array
{
    $file = berth_plugin_file(berth_string($in, 'plugin', null, 300));
    $was = is_plugin_active($file);
    if ($was) {
        deactivate_plugins([$file]);
    }
    return ['plugin' => $file, 'active' => is_plugin_active($file), 'changed' => $was];
}

/** @param array<string, mixed> $in */
function berth_plugin_delete(array $in): array
{
    try {
        $file = berth_plugin_file(berth_string($in, 'plugin', null, 300));
    } catch (BerthHelperError $e) {
        if ($e->errorCode === 'NOT_FOUND') {
            return ['plugin' => $in['plugin'], 'deleted' => false];
        }
        throw $e;
    }
    if (is_plugin_active($file)) {
        deactivate_plugins([$file], true);
    }
    $result = delete_plugins([$file]);
    berth_fail_on_wp_error($result, 'DELETE_FAILED');
    if ($result !== true) {
        throw new BerthHelperError('DELETE_FAILED', "WordPress could not delete $file");
    }
    return ['plugin' => $file, 'deleted' => true];
}

/** @param array<string, mixed> $in */
function berth_zip(array $in): string
{
    $zip = berth_string($in, 'zip', null, 1000);
    if ($zip === '' || $zip[0] !== '/' || !is_file($zip) || !is_readable($zip)) {
        throw new BerthHelperError('INVALID_INPUT', 'zip must be the absolute path of a readable file in the container', ['field' => 'zip']);
    }
    return $zip;
}

/**
 * An upgrader (Plugin_Upgrader, Theme_Upgrader) installing a local zip; WordPress validates the
 * package (a plugin header, a theme's style.css) and refuses to replace what exists unless overwrite.
 *
 * @param array<string, mixed> $in
 */
function berth_upgrader_install(string $class, array $in): WP_Upgrader
{
    $zip = berth_zip($in);
    $skin = new WP_Ajax_Upgrader_Skin();
    $upgrader = new $class($skin);
    $result = $upgrader->install($zip, ['overwrite_package' => berth_bool($in, 'overwrite', false)]);
    $errors = $skin->get_error_messages();
    if (is_wp_error($result) || $result !== true) {
        $message = is_wp_error($result) ? $result->get_error_message() : ($errors ?: 'the package was not installed');
        throw new BerthHelperError('INSTALL_FAILED', is_array($message) ? implode('; ', $message) : (string) $message, ['messages' => array_values(array_map('strip_tags', $skin->get_upgrade_messages()))]);
    }
    return $upgrader;
}

/** @param array<string, mixed> $in */
function berth_plugin_install_zip(array $in): array
{
    $activate = berth_bool($in, 'activate', false);
    $upgrader = berth_upgrader_install('Plugin_Upgrader', $in);
    $file = $upgrader->plugin_info();
    if (!$file) {
        throw new BerthHelperError('INSTALL_FAILED', 'the zip holds no plugin');
    }
    wp_clean_plugins_cache(false);
    if ($activate) {
        berth_fail_on_wp_error(activate_plugin($file), 'ACTIVATION_FAILED');
    }
    $plugins = get_plugins();
    return berth_plugin_entry($file, $plugins[$file] ?? []) + ['installed' => true];
}

function berth_theme_entry(WP_Theme $theme): array
{
    return [
        'theme' => $theme->get_stylesheet(),
        'name' => $theme->get('Name'),
        'version' => $theme->get('Version'),
        'parent' => $theme->parent() ? $theme->get_template() : null,
        'active' => $theme->get_stylesheet() === get_stylesheet(),
    ];
}

function berth_theme_list(): array
{
    return ['themes' => array_values(array_map('berth_theme_entry', wp_get_themes()))];
}

function berth_theme(string $stylesheet): WP_Theme
{
    $theme = wp_get_theme($stylesheet);
    if (!$theme->exists()) {
        throw new BerthHelperError('NOT_FOUND', "no theme $stylesheet", ['field' => 'theme']);
    }
    return $theme;
}

/** @param array<string, mixed> $in */
function berth_theme_activate(array $in): array
{
    $theme = berth_theme(berth_string($in, 'theme', null, 200));
    if ($theme->errors()) {
        throw new BerthHelperError('ACTIVATION_FAILED', $theme->errors()->get_error_message());
    }
    $changed = $theme->get_stylesheet() !== get_stylesheet();
    if ($changed) {
        switch_theme($theme->get_stylesheet());
    }
    return berth_theme_entry(wp_get_theme($theme->get_stylesheet())) + ['changed' => $changed];
}

/** @param array<string, mixed> $in */
function berth_theme_delete(array $in): array
{
    $stylesheet = berth_string($in, 'theme', null, 200);
    if (!wp_get_theme($stylesheet)->exists()) {
        return ['theme' => $stylesheet, 'deleted' => false];
    }
    if ($stylesheet === get_stylesheet() || $stylesheet === get_template()) {
        throw new BerthHelperError('CONFLICT', "$stylesheet is the active theme (or its parent): activate another one first", ['field' => 'theme']);
    }
    $result = delete_theme($stylesheet);
    berth_fail_on_wp_error($result, 'DELETE_FAILED');
    if ($result !== true) {
        throw new BerthHelperError('DELETE_FAILED', "WordPress could not delete $stylesheet");
    }
    return ['theme' => $stylesheet, 'deleted' => true];
}

/** @param array<string, mixed> $in */
function berth_theme_install_zip(array $in): array
{
    $activate = berth_bool($in, 'activate', false);
    $upgrader = berth_upgrader_install('Theme_Upgrader', $in);
    $theme = $upgrader->theme_info();
    if (!$theme) {
        throw new BerthHelperError('INSTALL_FAILED', 'the zip holds no theme');
    }
    if ($activate) {
        switch_theme($theme->get_stylesheet());
    }
    return berth_theme_entry(wp_get_theme($theme->get_stylesheet())) + ['installed' => true];
}

/**
 * A user with a random password nobody sees and a link to set it. An existing login with the same
 * e-mail answers created: false (a retry); another e-mail is a conflict.
 *
 * @param array<string, mixed> $in
 */
function berth_user_create(array $in): array
{
    $login = berth_string($in, 'login', null, 60);
    $email = berth_string($in, 'email', null, 100);
    $role = berth_string($in, 'role', 'administrator', 60);
    if (!get_role($role)) {
        throw new BerthHelperError('INVALID_INPUT', "no role $role", ['field' => 'role']);
    }
    $existing = get_user_by('login', $login);
    if ($existing) {
        if (strcasecmp($existing->user_email, $email) !== 0) {
            throw new BerthHelperError('CONFLICT', "user $login exists with another e-mail", ['field' => 'login']);
        }
        return ['created' => false, 'user_id' => $existing->ID, 'login' => $login, 'password_link' => berth_password_link($existing)];
    }
    $id = wp_insert_user(['user_login' => $login, 'user_email' => $email, 'role' => $role, 'user_pass' => wp_generate_password(40, true, true), 'display_name' => berth_string($in, 'display_name', $login, 250)]);
    if (is_wp_error($id)) {
        throw new BerthHelperError('INVALID_INPUT', $id->get_error_message(), ['wp_error' => $id->get_error_code()]);
    }
    return ['created' => true, 'user_id' => $id, 'login' => $login, 'password_link' => berth_password_link(get_user_by('id', $id))];
}

/** @param array<string, mixed> $in */
function berth_password_link_command(array $in): array
{
    $user = berth_user(berth_string($in, 'login', null, 60));
    return ['user_id' => $user->ID, 'login' => $user->user_login, 'password_link' => berth_password_link($user)];
}

/**
 * Operators and tests only (the control plane never stores or sets customers' passwords: they get
 * a password link).
 *
 * @param array<string, mixed> $in
 */
function berth_user_set_password(array $in): array
{
    $user = berth_user(berth_string($in, 'login', null, 60));
    $password = berth_string($in, 'password', null, 200);
    if (strlen($password) < 12) {
        throw new BerthHelperError('INVALID_INPUT', 'password must have at least 12 characters', ['field' => 'password']);
    }
    wp_set_password($password, $user->ID);
    return ['user_id' => $user->ID, 'login' => $user->user_login];
}

// ---------------------------------------------------------------------------------------------------
// Berth's WP-CLI subset (docs/wp-cli.md): WP-CLI's names, arguments, output formats and messages,
// answered with WordPress's functions when the image carries no real `wp`. The API checked the
// command against shared/domains/wordpress/wp-cli-command.ts; this checks what it runs again.
// ---------------------------------------------------------------------------------------------------

/** A WP-CLI `Error: ...`: exit 1 with the message on stderr. */
final class BerthWpCliError extends Exception
{
}

/** WP-CLI's `Success:` and `Warning:` lines, and the stdout they go with. */
final class BerthWpCliOutput
{
    public string $stdout = '';
    public string $stderr = '';

    public function line(string $text): void
    {
        $this->stdout .= $text . "\n";
    }

    public function success(string $text): void
    {
        $this->line("Success: $text");
    }

    public function warning(string $text): void
    {
        $this->stderr .= "Warning: $text\n";
    }

    /**
     * Rows as WP-CLI's --format prints them: an ASCII table, JSON or CSV.
     *
     * @param list<string> $fields
     * @param list<array<string, mixed>> $rows
     */
    public function rows(array $fields, array $rows, string $format): void
    {
        $rows = array_map(static fn (array $row): array => array_map(static fn (string $f) => $row[$f] ?? '', array_combine($fields, $fields)), $rows);
        if ($format === 'json') {
            $this->line((string) json_encode($rows, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE));
            return;
        }
        if ($format === 'csv') {
            $handle = fopen('php://memory', 'w+');
            fputcsv($handle, $fields, ',', '"', '\\');
            foreach ($rows as $row) {
                fputcsv($handle, array_map('strval', array_values($row)), ',', '"', '\\');
            }
            rewind($handle);
            $this->stdout .= (string) stream_get_contents($handle);
            return;
        }
        $widths = [];
        foreach ($fields as $field) {
            $widths[$field] = max(mb_strlen($field), ...array_map(static fn (array $row): int => mb_strlen((string) $row[$field]), $rows ?: [[$field => '']]));
        }
        $rule = '+' . implode('+', array_map(static fn (int $w): string => str_repeat('-', $w + 2), $widths)) . '+';
        $cells = static fn (array $values): string => '| ' . implode(' | ', array_map(static fn (string $f): string => (string) $values[$f] . str_repeat(' ', $widths[$f] - mb_strlen((string) $values[$f])), $fields)) . ' |';
        $this->line($rule);
        $this->line($cells(array_combine($fields, $fields)));
        $this->line($rule);
        foreach ($rows as $row) {
            $this->line($cells($row));
        }
        $this->line($rule);
    }
}

/**
 * argv split into positionals and --flags (`--format=json` → format: json, `--dry-run` → dry-run: true).
 *
 * @param list<string> $argv
 * @return array{0: list<string>, 1: array<string, string|true>}
 */
function berth_wp_cli_arguments(array $argv): array
{
    $words = [];
    $flags = [];
    foreach ($argv as $word) {
        if (str_starts_with($word, '--') && $word !== '--') {
            $parts = explode('=', substr($word, 2), 2);
            $flags[$parts[0]] = $parts[1] ?? true;
        } else {
            $words[] = $word;
        }
    }
    return [$words, $flags];
}

/** @param array<string, string|true> $flags */
function berth_wp_cli_format(array $flags): string
{
    $format = $flags['format'] ?? 'table';
    if (!in_array($format, ['table', 'json', 'csv'], true)) {
        throw new BerthWpCliError("Invalid value specified for 'format' (Render output in a particular format.)");
    }
    return $format;
}

/** The plugin as WP-CLI names it (its directory or single-file name), or WP-CLI's warning. */
function berth_wp_cli_plugin(string $name, BerthWpCliOutput $out): ?string
{
    try {
        return berth_plugin_file($name);
    } catch (BerthHelperError) {
        $out->warning("The '$name' plugin could not be found.");
        return null;
    }
}

/**
 * `wp plugin activate|deactivate`: WP-CLI's per-plugin lines, then its batch report
 * (Utils\report_batch_operation_results): already in that state is a warning, not a success.
 *
 * @param list<string> $names
 */
function berth_wp_cli_plugin_toggle(array $names, bool $activate, BerthWpCliOutput $out): void
{
    if ($names === []) {
        throw new BerthWpCliError('Please specify one or more plugins, or use --all.');
    }
    $past = $activate ? 'activated' : 'deactivated';
    [$successes, $failures] = [0, 0];
    foreach ($names as $name) {
        $file = berth_wp_cli_plugin($name, $out);
        if ($file === null) {
            $failures++;
            continue;
        }
        if (is_plugin_active($file) === $activate) {
            $out->warning($activate ? "Plugin '$name' is already active." : "Plugin '$name' isn't active.");
            continue;
        }
        if ($activate) {
            $result = activate_plugin($file);
            if (is_wp_error($result)) {
                $out->warning('Failed to activate plugin. ' . $result->get_error_message());
                $failures++;
                continue;
            }
        } else {
            deactivate_plugins([$file]);
        }
        $out->line("Plugin '$name' $past.");
        $successes++;
    }
    $total = count($names);
    if ($failures > 0) {
        throw new BerthWpCliError($successes > 0 ? "Only $past $successes of $total plugins." : "No plugins $past.");
    }
    $out->success($successes > 0 ? ucfirst($past) . " $successes of $total plugins." : ($total > 1 ? 'Plugins' : 'Plugin') . " already $past.");
}

/** A value as `wp option get` prints it: scalars as they are, arrays and objects as PHP's var_export, or JSON. */
function berth_wp_cli_value(mixed $value, string $format): string
{
    if ($format === 'json') {
        return (string) json_encode($value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
    }
    if (is_array($value) || is_object($value)) {
        return var_export($value, true);
    }
    return is_bool($value) ? ($value ? '1' : '') : (string) $value;
}

/**
 * @param list<string> $words
 * @param array<string, string|true> $flags
 */
function berth_wp_cli_command(array $words, array $flags, BerthWpCliOutput $out): void
{
    $command = implode(' ', array_slice($words, 0, 2));
    $args = array_slice($words, 2);
    switch ($command) {
        case 'plugin list':
            $rows = [];
            foreach (get_plugins() as $file => $data) {
                $entry = berth_plugin_entry($file, $data);
                $rows[] = ['name' => $entry['slug'], 'status' => $entry['active'] ? 'active' : 'inactive', 'update' => 'none', 'version' => $entry['version']];
            }
            $out->rows(['name', 'status', 'update', 'version'], $rows, berth_wp_cli_format($flags));
            return;
        case 'plugin activate':
        case 'plugin deactivate':
            berth_wp_cli_plugin_toggle($args, $command === 'plugin activate', $out);
            return;
        case 'theme list':
            $rows = [];
            foreach (wp_get_themes() as $theme) {
                $stylesheet = $theme->get_stylesheet();
                $status = $stylesheet === get_stylesheet() ? 'active' : ($stylesheet === get_template() ? 'parent' : 'inactive');
                $rows[] = ['name' => $stylesheet, 'status' => $status, 'update' => 'none', 'version' => $theme->get('Version')];
            }
            $out->rows(['name', 'status', 'update', 'version'], $rows, berth_wp_cli_format($flags));
            return;
        case 'theme activate':
            $name = $args[0] ?? throw new BerthWpCliError('Please specify a theme.');
            $theme = wp_get_theme($name);
            if (!$theme->exists()) {
                throw new BerthWpCliError("The '$name' theme could not be found.");
            }
            if ($theme->get_stylesheet() === get_stylesheet()) {
                $out->warning("The '" . $theme->get('Name') . "' theme is already active.");
                return;
            }
            if ($theme->errors()) {
                throw new BerthWpCliError($theme->errors()->get_error_message());
            }
            switch_theme($theme->get_stylesheet());
            $out->success("Switched to '" . $theme->get('Name') . "' theme.");
            return;
        case 'option get':
            $key = $args[0] ?? throw new BerthWpCliError('Please specify an option name.');
            $missing = new stdClass();
            $value = get_option($key, $missing);
            if ($value === $missing) {
                throw new BerthWpCliError("Could not get '$key' option. Does it exist?");
            }
            $out->line(berth_wp_cli_value($value, (string) ($flags['format'] ?? 'var_export')));
            return;
        case 'option update':
            if (count($args) < 2) {
                throw new BerthWpCliError('Please specify an option name and a value.');
            }
            [$key, $value] = $args;
            if (($flags['format'] ?? null) === 'json') {
                $value = json_decode($value, true);
            }
            if (get_option($key) === $value || (is_scalar(get_option($key)) && (string) get_option($key) === $value)) {
                $out->success("Value passed for '$key' option is unchanged.");
                return;
            }
            if (!update_option($key, $value)) {
                throw new BerthWpCliError("Could not update option '$key'.");
            }
            $out->success("Updated '$key' option.");
            return;
        case 'user list':
            $rows = [];
            foreach (get_users(['orderby' => 'ID']) as $user) {
                $rows[] = [
                    'ID' => $user->ID,
                    'user_login' => $user->user_login,
                    'display_name' => $user->display_name,
                    'user_email' => $user->user_email,
                    'user_registered' => $user->user_registered,
                    'roles' => implode(',', $user->roles),
                ];
            }
            $out->rows(['ID', 'user_login', 'display_name', 'user_email', 'user_registered', 'roles'], $rows, berth_wp_cli_format($flags));
            return;
        case 'cache flush':
            wp_cache_flush();
            $out->success('The cache was flushed.');
            return;
        case 'core version':
            $out->line($GLOBALS['wp_version']);
            return;
    }
    if (($words[0] ?? '') === 'search-replace') {
        berth_wp_cli_search_replace(array_slice($words, 1), $flags, $out);
        return;
    }
    throw new BerthWpCliError("'" . implode(' ', $words) . "' is not in Berth's WP-CLI subset (plugin list|activate|deactivate, theme list|activate, option get|update, user list, cache flush, core version, search-replace).");
}

/**
 * `wp search-replace <old> <new> [<table>...] [--dry-run]` through berth_search_replace (serialized
 * data kept valid); counts per table, as WP-CLI's summary does per column.
 *
 * @param list<string> $args
 * @param array<string, string|true> $flags
 */
function berth_wp_cli_search_replace(array $args, array $flags, BerthWpCliOutput $out): void
{
    if (count($args) < 2 || $args[0] === '') {
        throw new BerthWpCliError('Please specify <old> and <new> (a non-empty <old>).');
    }
    $dryRun = isset($flags['dry-run']);
    $in = ['old' => $args[0], 'new' => $args[1], 'dry_run' => $dryRun];
    if (count($args) > 2) {
        $in['tables'] = array_slice($args, 2);
    }
    try {
        $report = berth_search_replace($in);
    } catch (BerthHelperError $e) {
        throw new BerthWpCliError($e->getMessage());
    }
    $rows = array_map(static fn (array $t): array => ['Table' => $t['table'], 'Replacements' => $t['cells_changed'], 'Rows' => $t['rows_changed']], $report['tables']);
    $out->rows(['Table', 'Replacements', 'Rows'], $rows, berth_wp_cli_format($flags));
    $count = $report['cells_changed'];
    $out->success($dryRun ? "$count replacements to be made." : "Made $count replacements.");
}

/**
 * `wp-cli`: one command of the subset; answers what WP-CLI would have printed and its exit code
 * (0, or 1 with `Error: ...` on stderr). A wp_die() inside WordPress is an error too.
 *
 * @param array<string, mixed> $in
 */
function berth_wp_cli(array $in): array
{
    $argv = $in['argv'] ?? null;
    if (!is_array($argv) || !array_is_list($argv) || array_filter($argv, static fn ($a): bool => !is_string($a))) {
        throw new BerthHelperError('INVALID_INPUT', 'argv must be a list of strings', ['field' => 'argv']);
    }
    [$words, $flags] = berth_wp_cli_arguments($argv);
    $out = new BerthWpCliOutput();
    $exit = 0;
    try {
        berth_wp_cli_command($words, $flags, $out);
    } catch (BerthWpCliError|BerthHelperError $e) {
        $out->stderr .= 'Error: ' . $e->getMessage() . "\n";
        $exit = 1;
    }
    return ['exit_code' => $exit, 'stdout' => $out->stdout, 'stderr' => $out->stderr];
}

// ---------------------------------------------------------------------------------------------------
// Running a command
// ---------------------------------------------------------------------------------------------------

/**
 * wordpress: false (no WordPress loaded), 'installing' (WP_INSTALLING: works on a database without
 * tables), true (an installed site), 'admin' (an installed site, wp-admin's functions, acting as
 * its first administrator).
 */
const BERTH_COMMANDS = [
    'write-config' => ['wordpress' => false, 'run' => 'berth_write_config'],
    'core-version' => ['wordpress' => false, 'run' => 'berth_core_version'],
    'replace-values' => ['wordpress' => false, 'run' => 'berth_replace_values'],
    'install' => ['wordpress' => 'installing', 'run' => 'berth_install'],
    'status' => ['wordpress' => 'installing', 'run' => 'berth_status'],
    'inventory' => ['wordpress' => 'admin', 'run' => 'berth_inventory'],
    'option-get' => ['wordpress' => true, 'run' => 'berth_option_get'],
    'option-set' => ['wordpress' => true, 'run' => 'berth_option_set'],
    'search-replace' => ['wordpress' => true, 'run' => 'berth_search_replace'],
    'plugin-list' => ['wordpress' => 'admin', 'run' => 'berth_plugin_list'],
    'plugin-activate' => ['wordpress' => 'admin', 'run' => 'berth_plugin_activate'],
    'plugin-deactivate' => ['wordpress' => 'admin', 'run' => 'berth_plugin_deactivate'],
    'plugin-delete' => ['wordpress' => 'admin', 'run' => 'berth_plugin_delete'],
    'plugin-install-zip' => ['wordpress' => 'admin', 'run' => 'berth_plugin_install_zip'],
    'theme-list' => ['wordpress' => 'admin', 'run' => 'berth_theme_list'],
    'theme-activate' => ['wordpress' => 'admin', 'run' => 'berth_theme_activate'],
    'theme-delete' => ['wordpress' => 'admin', 'run' => 'berth_theme_delete'],
    'theme-install-zip' => ['wordpress' => 'admin', 'run' => 'berth_theme_install_zip'],
    'user-create' => ['wordpress' => 'admin', 'run' => 'berth_user_create'],
    'password-link' => ['wordpress' => true, 'run' => 'berth_password_link_command'],
    'user-set-password' => ['wordpress' => true, 'run' => 'berth_user_set_password'],
    'wp-cli' => ['wordpress' => 'admin', 'run' => 'berth_wp_cli'],
];

/** @param array<string, mixed> $payload */
function berth_emit(array $payload, int $status): never
{
    $GLOBALS['berth_emitted'] = true;
    while (ob_get_level() > 0) {
        $stray = ob_get_clean();
        if (is_string($stray) && $stray !== '') {
            fwrite(STDERR, $stray);
        }
    }
    $flags = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE | JSON_PRESERVE_ZERO_FRACTION | JSON_PARTIAL_OUTPUT_ON_ERROR;
    $json = json_encode($payload, $flags);
    if ($json === false) {
        $json = json_encode(['ok' => false, 'error' => ['code' => 'INTERNAL', 'message' => 'the answer is not JSON-encodable: ' . json_last_error_msg()]]);
        $status = 1;
    }
    fwrite(STDOUT, $json . "\n");
    fflush(STDOUT);
    // what shutdown hooks print after the answer goes to stderr too
    ob_start(static function (string $buffer): string {
        fwrite(STDERR, $buffer);
        return '';
    }, 1);
    exit($status);
}

function berth_error(string $code, string $message, array $details = []): never
{
    $error = ['code' => $code, 'message' => $message];
    if ($details) {
        $error['details'] = $details;
    }
    berth_emit(['ok' => false, 'error' => $error], in_array($code, ['INVALID_INPUT', 'UNKNOWN_COMMAND'], true) ? 2 : 1);
}

/** @return array{0: string, 1: array<string, mixed>} */
function berth_arguments(array $argv): array
{
    $command = $argv[1] ?? '';
    if (!isset(BERTH_COMMANDS[$command])) {
        throw new BerthHelperError('UNKNOWN_COMMAND', $command === '' ? 'usage: php berth-helper.php COMMAND [JSON]' : "unknown command $command", ['commands' => array_keys(BERTH_COMMANDS)]);
    }
    $raw = $argv[2] ?? '{}';
    if ($raw === '-') {
        $raw = (string) stream_get_contents(STDIN);
    }
    try {
        $input = json_decode($raw, true, 64, JSON_THROW_ON_ERROR);
    } catch (JsonException $e) {
        throw new BerthHelperError('INVALID_INPUT', 'the input is not JSON: ' . $e->getMessage());
    }
    if (!is_array($input) || ($input !== [] && array_is_list($input))) {
        throw new BerthHelperError('INVALID_INPUT', 'the input must be a JSON object');
    }
    return [$command, $input];
}

if (!defined('BERTH_HELPER_LIBRARY')) {
    if (PHP_SAPI !== 'cli') {
        http_response_code(404);
        exit(1);
    }
    $GLOBALS['berth_emitted'] = false;
    ini_set('display_errors', 'stderr');
    error_reporting(E_ALL & ~E_DEPRECATED & ~E_USER_DEPRECATED);
    ob_start();
    register_shutdown_function(static function (): void {
        if ($GLOBALS['berth_emitted']) {
            return;
        }
        $error = error_get_last();
        $output = '';
        while (ob_get_level() > 0) {
            $output .= (string) ob_get_clean();
        }
        fwrite(STDERR, $output);
        if ($error && in_array($error['type'], [E_ERROR, E_PARSE, E_CORE_ERROR, E_COMPILE_ERROR, E_USER_ERROR], true)) {
            berth_error('PHP_ERROR', $error['message'] . ' in ' . $error['file'] . ':' . $error['line']);
        }
        $text = trim(preg_replace('/\s+/', ' ', html_entity_decode(strip_tags($output), ENT_QUOTES)) ?? '');
        berth_error('WORDPRESS_EXITED', $text !== '' ? mb_substr($text, 0, 2000) : 'WordPress ended the run without an answer');
    });

    try {
        [$berth_command, $berth_input] = berth_arguments($argv);
        $berth_spec = BERTH_COMMANDS[$berth_command];
        $berth_path = berth_wordpress_path($berth_input);
        if ($berth_spec['wordpress'] !== false) {
            berth_prepare_wordpress($berth_path, $berth_spec['wordpress'] === 'installing', $berth_input);
            // global scope: WordPress's files expect their variables to be globals
            require_once $berth_path . '/wp-load.php';
            if ($berth_spec['wordpress'] === 'installing') {
                berth_quiet_install();
                require_once ABSPATH . 'wp-admin/includes/upgrade.php';
            } elseif ($berth_spec['wordpress'] === 'admin') {
                berth_require_admin();
                berth_act_as_admin();
            }
        }
        berth_emit(['ok' => true, 'data' => ($berth_spec['run'])($berth_input, $berth_path)], 0);
    } catch (BerthHelperError $e) {
        berth_error($e->errorCode, $e->getMessage(), $e->details);
    } catch (Throwable $e) {
        berth_error('INTERNAL', get_class($e) . ': ' . $e->getMessage() . ' at ' . basename($e->getFile()) . ':' . $e->getLine());
    }
}
