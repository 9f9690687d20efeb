#!/usr/bin/env python3
"""Prints graphql-core's verdicts on the validation corpus as JSON, the oracle of the
differential tests (Tests/GraphQLTests/Conformance/).

Usage: verdicts.py SCHEMA.graphql DOCUMENTS.json

The output is a JSON array with, for each document in order, an object
{"name", "parses", "errors": [messages]}: whether graphql-core parses the document and, if
so, the messages of the validation errors it reports with the specified rules (the non-spec
"recommended" rules such as the introspection depth limit are left out) and the default error
limit of 100.
"""

import json
import sys

import graphql
from graphql.validation import specified_rules
from graphql.validation.specified_rules import recommended_rules


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: verdicts.py SCHEMA.graphql DOCUMENTS.json")
    with open(sys.argv[1], encoding="utf-8") as file:
        schema = graphql.build_schema(file.read())
    with open(sys.argv[2], encoding="utf-8") as file:
        corpus = json.load(file)
    rules = [rule for rule in specified_rules if rule not in recommended_rules]
    verdicts = []
    for entry in corpus:
        try:
            document = graphql.parse(entry["document"])
        except graphql.GraphQLError as error:
            verdicts.append({"name": entry["name"], "parses": False, "errors": [error.message]})
            continue
        errors = graphql.validate(schema, document, rules)
        verdicts.append({"name": entry["name"], "parses": True, "errors": [error.message for error in errors]})
    json.dump({"graphqlCoreVersion": graphql.__version__, "verdicts": verdicts}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
