-- Run on a logical-replication SUBSCRIBER of the filter's database (never on the publisher): its copy
-- of the filter follows the publisher's swap in the transaction that applies it. The publisher's swap
-- records the old pair in bloomscope_swapped; applying that row here renames this subscriber's pair
-- the same way, so that the rows the publisher writes to its new table from then on (sent under the
-- live name) land in the new table here too, never in the old one (whose chunks they would overwrite).
-- Placeholders: {{schema}}, {{swapped}} (quoted identifiers); {{live}}, {{live_function}}, {{new}},
-- {{new_function}} (the names, as string literals).
create or replace function {{schema}}.bloomscope_follow_swap() returns trigger
language plpgsql set search_path = pg_catalog, pg_temp as $fn$
declare
  s text := TG_TABLE_SCHEMA;
  live text := TG_ARGV[0];
  live_fn text := TG_ARGV[1];
  next text := TG_ARGV[2];
  next_fn text := TG_ARGV[3];
  r record;
begin
  if NEW.live_table is distinct from live or to_regclass(format('%I.%I', s, next)) is null then
    return null; -- another filter's swap, or one this subscriber followed already
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
  -- The publisher's renames, here.
  execute format('alter table %I.%I rename to %I', s, live, NEW.old_table);
  execute format('alter function %I.%I(text) rename to %I', s, live_fn, NEW.old_function);
  execute format('alter table %I.%I rename to %I', s, next, live);
  execute format('alter function %I.%I(text) rename to %I', s, next_fn, live_fn);
  return null;
end
$fn$;
revoke all on function {{schema}}.bloomscope_follow_swap() from public;
create or replace trigger bloomscope_follow_swap after insert on {{swapped}}
  for each row execute function {{schema}}.bloomscope_follow_swap({{live}}, {{live_function}}, {{new}}, {{new_function}});
alter table {{swapped}} enable replica trigger bloomscope_follow_swap;
