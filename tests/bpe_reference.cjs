// bpe_reference.cjs — token ids from the npm package tiktoken itself, the reference that
// tfviz's cl100k and o200k modes must reproduce.
//
//   node tests/bpe_reference.cjs PACKAGE_DIR < cases.json > ids.json
//
// cases.json is a JSON array of strings; the output maps each encoding to one array of ids
// per string (encode_ordinary: special tokens are plain text).
const path = require("path");
const { get_encoding } = require(path.resolve(process.argv[2], "tiktoken.cjs"));
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = { version: require(path.resolve(process.argv[2], "package.json")).version };
for (const name of ["cl100k_base", "o200k_base"]) {
    const enc = get_encoding(name);
    out[name] = cases.map((s) => Array.from(enc.encode_ordinary(s)));
    enc.free();
}
process.stdout.write(JSON.stringify(out) + "\n");
