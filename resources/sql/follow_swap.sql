-- Run on a logical-replication SUBSCRIBER of the filter's database (never on the publisher): its copy
-- of the filter follows the publisher's swap in the transaction that applies it. The publisher's swap
-- records, in bloomscope_swapped, the filter's schema, its live name, the new pair it swapped in and
-- the old pair's new names; applying that row here renames this subscriber's pair the same way, so that
-- the rows the publisher writes to its new table from then on (sent under the live name) land in the new
-- table here too, never in the old one (whose chunks they would overwrite). The filter's schema is the
-- one this trigger was made for (its first argument) and the one the swap recorded, never the schema the
-- trigger's table lives in (the helper schema). Whatever does not match raises an error: the apply
-- worker stops before the swap, the old table keeps answering, and the DBA sees it
-- (pg_stat_subscription_stats.apply_error_count, the server's log), instead of a swap skipped in silence.
-- Placeholders, all replaced in one pass: {{schema}}, {{swapped}} (quoted identifiers);
-- {{live_schema}}, {{live}}, {{live_function}}, {{new}}, {{new_function}} (the names, as string literals).
create or replace function {{schema}}.bloomscope_follow_swap() returns trigger
language plpgsql set search_path = pg_catalog, pg_temp as $fn$
declare
  s text := TG_ARGV[0];
  live text := TG_ARGV[1];
  live_fn text := TG_ARGV[2];
  next text := TG_ARGV[3];
  next_fn text := TG_ARGV[4];
  r record;
begin
  if TG_NARGS <> 5 then
    raise exception 'bloomscope: the follow-swap trigger on %.% has % arguments, not 5',
      TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_NARGS
      using hint = 'create it again with the SQL the publisher''s bloomctl rebuild printed';
  end if;
  -- The table's initial copy (a refresh that adds bloomscope_swapped) brings the swaps of the past:
  -- history, not a swap in the stream.
  if exists (select from pg_subscription_rel sr where sr.srrelid = TG_RELID and sr.srsubstate = 'd') then
    return null;
  end if;
  if NEW.live_table is distinct from live then
    return null; -- another filter's swap (its helpers share this schema)
  end if;
  if NEW.live_schema is null or NEW.new_table is null or NEW.new_function is null then
    raise exception 'bloomscope: cannot follow the swap of %.%: the publisher recorded no schema or new pair with it',
      s, live using hint = 'the publisher''s swap was made by an older bloomctl: swap with this one, or rename '
                           'this subscriber''s pair by hand, then ALTER SUBSCRIPTION ... ENABLE';
  end if;
  if NEW.live_schema is distinct from s then
    return null; -- the filter of the same name in another schema
  end if;
  if (NEW.new_table, NEW.new_function) is distinct from (next, next_fn) then
    raise exception 'bloomscope: cannot follow the swap of %.%: the publisher swapped in %.% (function %), this '
                    'subscriber was prepared for %.% (function %)',
      s, live, s, NEW.new_table, NEW.new_function, s, next, next_fn
      using hint = 'on this subscriber, run the SQL the publisher''s bloomctl rebuild printed for that table, '
                   'refresh the subscription, and the apply worker follows the swap on its next attempt';
  end if;
  if to_regclass(format('%I.%I', s, live)) is null or to_regclass(format('%I.%I', s, next)) is null
     or to_regprocedure(format('%I.%I(text)', s, live_fn)) is null
     or to_regprocedure(format('%I.%I(text)', s, next_fn)) is null then
    raise exception 'bloomscope: cannot follow the swap of %.%: this subscriber lacks %', s, live,
      concat_ws(', ',
        case when to_regclass(format('%I.%I', s, live)) is null then format('table %I.%I', s, live) end,
        case when to_regclass(format('%I.%I', s, next)) is null then format('table %I.%I', s, next) end,
        case when to_regprocedure(format('%I.%I(text)', s, live_fn)) is null
             then format('function %I.%I(text)', s, live_fn) end,
        case when to_regprocedure(format('%I.%I(text)', s, next_fn)) is null
             then format('function %I.%I(text)', s, next_fn) end)
      using hint = 'run the SQL the publisher''s bloomctl rebuild printed, refresh the subscription, and wait '
                   'for its ready_for_the_swap query';
  end if;
  if not exists (select from pg_subscription_rel sr where sr.srrelid = format('%I.%I', s, next)::regclass
                 and sr.srsubstate = 'r') then
    -- Never serve a new table that is not a full copy: this stops the apply worker before the swap
    -- (the old table keeps answering, without the names added since) until the DBA acts.
    raise exception 'bloomscope: cannot follow the swap of %.%: %.% is not synchronized here',
      s, live, s, next using hint = 'ALTER SUBSCRIPTION ... REFRESH PUBLICATION before the swap; see the README';
  end if;
  -- The new pair gets this subscriber's owner and grants of the live pair.
  for r in select a.privilege_type as priv, a.is_grantable as opt,
                  case when a.grantee = 0 then 'public' else a.grantee::regrole::text end as who
           from pg_class c, aclexplode(c.relacl) a
           where c.oid = format('%I.%I', s, live)::regclass and a.grantee <> c.relowner loop
    execute format('grant %s on table %I.%I to %s%s', r.priv, s, next, r.who,
                   case when r.opt then ' with grant option' else '' end);
  end loop;
  if (select proacl is not null from pg_proc where oid = format('%I.%I(text)', s, live_fn)::regprocedure) then
    execute format('revoke all on function %I.%I(text) from public', s, next_fn);
    for r in select a.is_grantable as opt,
                    case when a.grantee = 0 then 'public' else a.grantee::regrole::text end as who
             from pg_proc p, aclexplode(p.proacl) a
             where p.oid = format('%I.%I(text)', s, live_fn)::regprocedure and a.grantee <> p.proowner loop
      execute format('grant execute on function %I.%I(text) to %s%s', s, next_fn, r.who,
                     case when r.opt then ' with grant option' else '' end);
    end loop;
  end if;
  execute format('alter table %I.%I owner to %s', s, next,
                 (select relowner::regrole::text from pg_class where oid = format('%I.%I', s, live)::regclass));
  execute format('alter function %I.%I(text) owner to %s', s, next_fn,
                 (select proowner::regrole::text from pg_proc where oid = format('%I.%I(text)', s, live_fn)::regprocedure));
  -- The publisher's renames, here, in the transaction that applies the swap.
  execute format('alter table %I.%I rename to %I', s, live, NEW.old_table);
  execute format('alter function %I.%I(text) rename to %I', s, live_fn, NEW.old_function);
  execute format('alter table %I.%I rename to %I', s, next, live);
  execute format('alter function %I.%I(text) rename to %I', s, next_fn, live_fn);
  return null;
end
$fn$;
revoke all on function {{schema}}.bloomscope_follow_swap() from public;
create or replace trigger bloomscope_follow_swap after insert on {{swapped}}
  for each row execute function {{schema}}.bloomscope_follow_swap({{live_schema}}, {{live}}, {{live_function}}, {{new}}, {{new_function}});
alter table {{swapped}} enable replica trigger bloomscope_follow_swap;
