-- bloomscope_record(): a snapshot taken on the server, so that pg_cron can record on a schedule
-- (bloomctl record --install-function). Placeholder: the schema, a quoted identifier, in double braces.
--
-- One snapshot of filter_table, computed as bloomctl record computes it: k is the most bits one probe
-- name sets through filter_function; names are estimated chunk by chunk from the fill (a full chunk
-- counts as one bit short of full); FPR is the reference's avg(power(bit_count(bits) / B, k)); the
-- histogram counts chunks per tenth of their bits set. With thin, the history of the table is then
-- thinned as bloomctl record --thin does (all of 7 days, the first of each hour to 90 days, of each
-- day before). Runs with the caller's rights.
create or replace function {{schema}}.bloomscope_record(filter_table regclass, filter_function regprocedure,
                                                      thin boolean default false)
returns bigint
language plpgsql security invoker
set search_path = pg_catalog, pg_temp as $fn$
declare
  started timestamptz := clock_timestamp();
  pos bigint := pg_snapshot_xmin(pg_current_snapshot())::text::int8;
  tname text;
  fname text;
  k int := 0;
  b int;
  probe int;
  n int;
  total bigint;
  names float8;
  rate float8;
  fullest int;
  fullest_bits int;
  hist bigint[];
  new_id bigint;
  nulls int;
  top int;
  chunks bigint := 1;
begin
  select format('%s.%s', ns.nspname, c.relname), a.atttypmod
    into tname, b
    from pg_class c join pg_namespace ns on ns.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attname = 'bits' and not a.attisdropped
   where c.oid = filter_table;
  if b is null or b < 1 then
    raise exception 'bloomscope_record: % has no bits column of type bit(N)', filter_table;
  end if;
  select format('%I.%I', ns.nspname, p.proname) into fname
    from pg_proc p join pg_namespace ns on ns.oid = p.pronamespace where p.oid = filter_function;
  for i in 1..16 loop
    execute format('select bit_count(mask)::int from %s($1)', fname) into probe using 'bloomscope-probe-' || i;
    k := greatest(k, probe);
  end loop;
  if k < 1 then
    raise exception 'bloomscope_record: % sets no bit for a name', filter_function;
  end if;
  execute format($q$
    with f as materialized (select chunk, bit_count(bits)::int as c from %s)
    select (select count(*)::int from f),
           (select coalesce(sum(c), 0)::bigint from f),
           (select coalesce(sum(ln(1 - least(c, $1 - 1)::float8 / $1)), 0) / ($2 * ln(1 - 1 / $1::float8)) from f),
           (select coalesce(avg(power(c / $1::float8, $2)), 0) from f),
           (select chunk from f order by c desc, chunk limit 1),
           (select coalesce(max(c), 0) from f),
           array(select count(f.c) from generate_series(0, 9) g
                   left join f on least(9, f.c * 10 / $1) = g group by g order by g),
           (select count(*)::int from f where c is null),
           (select coalesce(max(chunk), 0) from f)$q$, filter_table)
    into n, total, names, rate, fullest, fullest_bits, hist, nulls, top
    using b, k;
  -- A NULL or missing chunk row: its names are neither free nor maybe, and every figure above counts
  -- it as empty. No snapshot of that: the job fails, saying so (bloomctl health names the chunks).
  while chunks < top + 1 loop
    chunks := chunks * 2;
  end loop;
  if nulls > 0 or n < chunks then
    raise exception 'bloomscope_record: % is damaged: % chunk row(s) NULL, % missing; a name there is neither '
                    'free nor maybe (bloomctl health names them and gives the fix)', tname, nulls, chunks - n;
  end if;
  insert into {{schema}}.bloomscope_history (filter_table, chunks, chunk_bits, k, set_bits, estimated_names,
                                            estimated_fpr, fullest_chunk, fullest_set_bits, histogram, cost_ms,
                                            read_position)
  values (tname, n, b, k, total, names, rate, coalesce(fullest, 0), fullest_bits, hist,
          extract(epoch from clock_timestamp() - started) * 1000, pos)
  returning id into new_id;
  if thin then
    delete from {{schema}}.bloomscope_history h using (
      select x.id, row_number() over (partition by case when x.taken_at < now() - interval '90 days'
               then date_trunc('day', x.taken_at) else date_trunc('hour', x.taken_at) end
               order by x.taken_at, x.id) as nth
        from {{schema}}.bloomscope_history x
       where x.filter_table = tname and x.taken_at < now() - interval '7 days') old
    where h.id = old.id and old.nth > 1;
  end if;
  return new_id;
end
$fn$;
revoke all on function {{schema}}.bloomscope_record(regclass, regprocedure, boolean) from public;
comment on function {{schema}}.bloomscope_record(regclass, regprocedure, boolean) is 'Bloomscope: record a snapshot of a Bloom filter in bloomscope_history (for pg_cron)';
