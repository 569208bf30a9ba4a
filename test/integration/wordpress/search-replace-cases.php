<?php
/**
 * Unit cases for the helper's search-replace (BerthReplacer), run with the image's php by
 * wordpress-runtime.test.ts: php search-replace-cases.php HELPER_PATH. Prints one JSON object:
 * {"passed": n, "failures": [{"name", "expected", "actual"}]}.
 *
 * Each case states the value the rewrite must produce exactly: serialized inputs are built with
 * serialize() from real PHP values, and their expected output is serialize() of the same values with
 * the URL replaced, so lengths, structure, keys, scalars and references must all come out byte for
 * byte as PHP itself would write them.
 */

declare(strict_types=1);

define('BERTH_HELPER_LIBRARY', true);
require $argv[1];
error_reporting(E_ALL & ~E_DEPRECATED);

const OLD = 'http://prod-demo.berth.test';
const REPLACEMENT = 'https://clone-demo.berth.test';

class BerthCaseThing
{
    public string $url = OLD . '/public';
    protected string $guarded = OLD . '/protected';
    private array $hidden = ['list' => [OLD . '/private']];

    public function withUrl(string $url): static
    {
        $copy = clone $this;
        $copy->url = $url . '/public';
        $copy->guarded = $url . '/protected';
        $copy->hidden = ['list' => [$url . '/private']];
        return $copy;
    }
}

final class BerthCaseCustom implements Serializable
{
    public function __construct(public string $url = OLD)
    {
    }

    public function serialize(): string
    {
        return $this->url;
    }

    public function unserialize(string $data): void
    {
        $this->url = $data;
    }
}

/** PHP 7.4+ objects with __serialize: written as O: with the array it returns. */
final class BerthCaseModern
{
    public function __construct(public string $url = OLD)
    {
    }

    public function __serialize(): array
    {
        return ['u' => $this->url, 'n' => 3];
    }

    public function __unserialize(array $data): void
    {
        $this->url = $data['u'];
    }
}

enum BerthCaseSuit: string
{
    case Hearts = 'H';
}

function swap(string $s): string
{
    return str_replace(OLD, REPLACEMENT, $s);
}

$failures = [];
$passed = 0;
$check = static function (string $name, string $input, string $expected, ?array $stats = null) use (&$failures, &$passed): void {
    $replacer = new BerthReplacer([[OLD, REPLACEMENT]]);
    $actual = $replacer->replace($input);
    $ok = $actual === $expected;
    if ($ok && $stats !== null) {
        foreach ($stats as $key => $value) {
            $ok = $ok && $replacer->stats()[$key] === $value;
        }
        if (!$ok) {
            $actual .= ' stats=' . json_encode($replacer->stats());
        }
    }
    if ($ok) {
        $passed++;
    } else {
        $failures[] = ['name' => $name, 'expected' => $expected, 'actual' => $actual];
    }
};

$check('plain text', 'see ' . OLD . '/page and ' . OLD, 'see ' . REPLACEMENT . '/page and ' . REPLACEMENT);
$check('no match leaves the value alone', serialize(['a' => 'http://elsewhere.test']), serialize(['a' => 'http://elsewhere.test']), ['serialized_values' => 0]);

$array = ['home' => OLD, 'links' => [OLD . '/a', 'x' => [OLD . '/b', 7, 1.5, true, null]], OLD => 'key stays'];
$expected = ['home' => REPLACEMENT, 'links' => [REPLACEMENT . '/a', 'x' => [REPLACEMENT . '/b', 7, 1.5, true, null]], OLD => 'key stays'];
$check('nested arrays, scalars kept, keys kept', serialize($array), serialize($expected), ['serialized_values' => 1, 'replacements' => 3]);

$multibyte = ['title' => 'Grüße 👋 ' . OLD . '/über', 'ja' => 'サイト ' . OLD];
$check('multibyte strings get byte lengths', serialize($multibyte), serialize(['title' => 'Grüße 👋 ' . REPLACEMENT . '/über', 'ja' => 'サイト ' . REPLACEMENT]));

$inner = serialize(['widget' => OLD . '/w', 'deeper' => serialize([OLD])]);
$check('serialized strings nested in serialized data', serialize(['inner' => $inner]), serialize(['inner' => serialize(['widget' => REPLACEMENT . '/w', 'deeper' => serialize([REPLACEMENT])])]), ['serialized_values' => 3]);
$check('a serialized string serialized again (update_option of a serialized string)', serialize(serialize(['u' => OLD])), serialize(serialize(['u' => REPLACEMENT])));

$thing = new BerthCaseThing();
$check('objects of any class: public, protected and private properties, never instantiated', serialize(['o' => $thing]), serialize(['o' => $thing->withUrl(REPLACEMENT)]));
$std = (object) ['url' => OLD, 'nested' => (object) ['list' => [OLD]]];
$check('stdClass', serialize($std), serialize((object) ['url' => REPLACEMENT, 'nested' => (object) ['list' => [REPLACEMENT]]]));
$check('__serialize objects (O: with custom data)', serialize(new BerthCaseModern()), serialize(new BerthCaseModern(REPLACEMENT)));

$custom = serialize(['c' => new BerthCaseCustom(), 'u' => OLD]);
$check('Serializable (C:) payloads are left as they are and counted', $custom, str_replace('"u";s:27:"' . OLD, '"u";s:29:"' . REPLACEMENT, $custom), ['skipped_values' => 1]);

$check('enums are kept', serialize(['suit' => BerthCaseSuit::Hearts, 'u' => OLD]), serialize(['suit' => BerthCaseSuit::Hearts, 'u' => REPLACEMENT]));

$shared = ['x' => OLD];
$shared['y'] = &$shared['x'];
$object = new stdClass();
$object->url = OLD;
$withRefs = ['a' => $object, 'b' => $object, 'refs' => $shared];
$expectedShared = ['x' => REPLACEMENT];
$expectedShared['y'] = &$expectedShared['x'];
$expectedObject = new stdClass();
$expectedObject->url = REPLACEMENT;
$check('references (r: and R:) are kept', serialize($withRefs), serialize(['a' => $expectedObject, 'b' => $expectedObject, 'refs' => $expectedShared]));

$check('floats, INF, NAN, negative and big integers are kept byte for byte', serialize([0.1, -2.5e-10, INF, -INF, NAN, PHP_INT_MIN, 'u' => OLD]), serialize([0.1, -2.5e-10, INF, -INF, NAN, PHP_INT_MIN, 'u' => REPLACEMENT]));

$check('surrounding whitespace is kept', "  " . serialize(['u' => OLD]) . "\n", "  " . serialize(['u' => REPLACEMENT]) . "\n");

$json = json_encode(['url' => OLD . '/x']);
$check('JSON-escaped URLs', $json, json_encode(['url' => REPLACEMENT . '/x']));
$check('JSON inside serialized data', serialize(['blocks' => $json]), serialize(['blocks' => json_encode(['url' => REPLACEMENT . '/x'])]));

$broken = 's:5:"' . OLD . '";';
$check('serialized-looking text with a wrong length is plain text', $broken, 's:5:"' . REPLACEMENT . '";', ['serialized_values' => 0]);
$check('text that starts like serialized data', 'a:1:{ is how ' . OLD . ' starts', 'a:1:{ is how ' . REPLACEMENT . ' starts');

$deep = OLD;
$deepExpected = REPLACEMENT;
for ($i = 0; $i < 200; $i++) {
    $deep = [$deep];
    $deepExpected = [$deepExpected];
}
$check('200 levels deep', serialize($deep), serialize($deepExpected));

$grows = new BerthReplacer([['http://a.test', 'http://a.test.example']]);
$value = $grows->replace(serialize(['http://a.test', 'http://a.test/x']));
if ($value === serialize(['http://a.test.example', 'http://a.test.example/x'])) {
    $passed++;
} else {
    $failures[] = ['name' => 'a replacement containing the search string is applied once', 'expected' => '', 'actual' => $value];
}

$pairs = new BerthReplacer([[OLD, REPLACEMENT], ['//prod-demo.berth.test', '//clone-demo.berth.test']]);
$value = $pairs->replace(serialize(['a' => OLD, 'b' => 'src="//prod-demo.berth.test/i.png"']));
if ($value === serialize(['a' => REPLACEMENT, 'b' => 'src="//clone-demo.berth.test/i.png"'])) {
    $passed++;
} else {
    $failures[] = ['name' => 'pairs are applied in order', 'expected' => '', 'actual' => $value];
}

echo json_encode(['passed' => $passed, 'failures' => $failures], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
