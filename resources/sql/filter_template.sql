-- Bloomscope's filter for any geometry. With the defaults it is the reference filter exactly.
-- Placeholders: {{table}} {{function}} (quoted identifiers), {{chunks_minus_1}}, {{chunk_bits}},
-- {{chunk_log2}}, {{bits_log2}}, {{k_minus_1}}, {{first_slice}} (= chunk_log2 + 1), {{chunk_expr}}.

create table {{table}} (
  chunk int primary key,
  bits  bit({{chunk_bits}}) not null
);

insert into {{table}}
select n, 0::bit({{chunk_bits}}) from generate_series(0, {{chunks_minus_1}}) as n;

create function {{function}}(name text, out chunk int, out mask bit({{chunk_bits}}))
language plpgsql set search_path = pg_catalog, pg_temp as $$
declare
  h bit(128) := ('x' || md5(lower(name)))::bit(128);
begin
  chunk := {{chunk_expr}};
  mask := 0::bit({{chunk_bits}});
  for i in 0..{{k_minus_1}} loop
    mask := set_bit(mask, substring(h from {{first_slice}} + i * {{bits_log2}} for {{bits_log2}})::int, 1);
  end loop;
end
$$;
