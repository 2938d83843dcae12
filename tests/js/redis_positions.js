// Golden positions for the Redis bitmap filter, computed by the reference's own JavaScript
// (UsernameBloomFilter.js: #sha256 and #fnvHash, copied verbatim) on this machine's Node.js.
// stdin: {"names": [...], "hex": [...]}; stdout: {"positions": [[sha, fnv], ...], "parsed": [...]}
const crypto = require('crypto');

class UsernameBloomFilter {
  static #size = 10_000_000;
  static indexes(username) {
    return [this.#sha256(username), this.#fnvHash(username)];
  }
  static #sha256(username) {
    const hashedUsername = crypto.createHash('sha256').update(username).digest('hex');
    const hashedInt = parseInt(hashedUsername, 16);
    return hashedInt % this.#size;
  }
  static #fnvHash(username) {
    const FNV_PRIME = 16777619;
    const OFFSET_BASIS = 2166136261;
    let hash = OFFSET_BASIS;
    for (let i = 0; i < username.length; i++) {
      hash ^= username.charCodeAt(i);
      hash *= FNV_PRIME;
    }
    const unsigned = hash >>> 0;
    return unsigned % this.#size;
  }
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const req = JSON.parse(input);
  const out = {
    positions: req.names.map((n) => UsernameBloomFilter.indexes(n)),
    parsed: (req.hex || []).map((h) => parseInt(h, 16)),
  };
  process.stdout.write(JSON.stringify(out));
});
