-- The reference filter, verbatim from "Bloom Filters in Postgres" (April 19, 2026).
-- Bloomscope attaches to a filter created by exactly these statements.

create table username_filter (
  chunk int primary key,
  bits  bit(8192) not null
);

insert into username_filter
select n, 0::bit(8192) from generate_series(0, 131071) as n;

create function username_bits(name text, out chunk int, out mask bit(8192))
language plpgsql as $$
declare
  h bit(128) := ('x' || md5(lower(name)))::bit(128);
begin
  chunk := substring(h from 1 for 17)::int;
  mask := 0::bit(8192);
  for i in 0..6 loop
    mask := set_bit(mask, substring(h from 18 + i * 13 for 13)::int, 1);
  end loop;
end
$$;
