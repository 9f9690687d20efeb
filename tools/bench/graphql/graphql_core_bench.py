"""The engine benchmark's graphql-core side: the same work as GraphQLBench (parse, validate
with the specified rules, execute and serialize the standard introspection query and the
1,000 x 10 list query), printed in the same `name key=value ...` format.

Usage: graphql_core_bench.py SCHEMA.graphql INTROSPECTION.graphql SECONDS"""
import json
import sys
import time

from graphql import build_schema, execute_sync, parse, validate


def item(index):
    return {
        "id": str(index), "name": f"Item {index}", "description": f"The item numbered {index}.",
        "price": index * 1.25, "quantity": index % 17, "active": index % 2 == 0,
        "category": f"category-{index % 10}", "sku": f"SKU-{100_000 + index}", "rating": (index % 50) / 10,
        "stock": index * 3,
    }


ITEMS = [item(index) for index in range(1000)]
LIST_QUERY = "{ items(count: 1000) { id name description price quantity active category sku rating stock } }"


class Root:
    @staticmethod
    def items(_info, count=1000):
        return ITEMS[:count]


def measure(seconds, body):
    """Iterations, elapsed seconds and CPU seconds of running `body` for about `seconds`."""
    warm_up_end = time.perf_counter() + 0.3
    while time.perf_counter() < warm_up_end:
        body()
    start = time.perf_counter()
    cpu_start = time.process_time()
    iterations = 0
    while True:
        body()
        iterations += 1
        if time.perf_counter() - start >= seconds and iterations >= 5:
            break
    return iterations, time.perf_counter() - start, time.process_time() - cpu_start


def main():
    schema_path, introspection_path, seconds = sys.argv[1:4]
    schema = build_schema(open(schema_path).read())
    introspection = open(introspection_path).read()
    size = 0

    def run(query):
        nonlocal size
        document = parse(query)
        errors = validate(schema, document)
        if errors:
            raise errors[0]
        result = execute_sync(schema, document, root_value=Root)
        if result.errors:
            raise result.errors[0]
        size = len(json.dumps(result.formatted, separators=(",", ":"), ensure_ascii=False).encode())

    for name, query, fields in (("introspection", introspection, 0), ("list", LIST_QUERY, 10_000)):
        iterations, elapsed, cpu_seconds = measure(float(seconds), lambda: run(query))
        per_operation = elapsed / iterations
        line = (f"{name} iterations={iterations} seconds={elapsed} ms_per_op={per_operation * 1000} "
                f"cpu_ms_per_op={cpu_seconds / iterations * 1000} bytes={size}")
        if fields:
            line += f" fields_per_second={fields / per_operation}"
        print(line, flush=True)


main()
