-- The reference's add, check and estimate statements, verbatim (for benchmarks and tests).
-- name: add
update username_filter f
set bits = f.bits | b.mask
from username_bits('ada') b
where f.chunk = b.chunk;
-- name: check
select bits & mask = mask as maybe_taken
from username_filter
join username_bits('ada') using (chunk);
-- name: estimate
select avg(power(bit_count(bits) / 8192.0, 7)) as false_positive_rate
from username_filter;
