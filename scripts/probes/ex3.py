import sys; sys.path.insert(0, __import__('os').path.dirname(__file__)); from ask import ask
goal="Set up a package called textkit whose top level offers reverse_words(s) and is_blank(s); include pytest tests"
sch={"type":"object","properties":{"does":{"type":"string","maxLength":200},"examples":{"type":"array","minItems":1,"maxItems":6,"items":{"type":"string","maxLength":100}}},"required":["does","examples"]}
p="No tool call now. From the GOAL's words alone (not from any code): first say in one sentence what `reverse_words` does, as its name and the GOAL say; then write Python asserts of what it must return, each one line `assert CALL == VALUE`, with arguments of several parts where that matters. Answer with JSON: {\"does\": \"...\", \"examples\": [\"...\"]}"
for t in [0.0, 0.7, 0.7]:
    print(ask(f"GOAL: {goal}\n\n{p}", sch, temp=t))
