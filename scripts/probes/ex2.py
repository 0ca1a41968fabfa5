import sys; sys.path.insert(0, __import__('os').path.dirname(__file__)); from ask import ask
goal="Set up a package called textkit whose top level offers reverse_words(s) and is_blank(s); include pytest tests"
sch={"type":"object","properties":{"returns":{"type":"array","minItems":1,"maxItems":1,"items":{"type":"string","maxLength":100}}},"required":["returns"]}
p="No tool call now. From the GOAL's words alone (not from any code), complete each of these lines with the value the GOAL's words say the call returns, in place of the `...`:\nassert reverse_words('hello world') == ...\nAnswer with JSON, the completed lines in the same order: {\"returns\": [\"...\"]}"
print(ask(f"GOAL: {goal}\n\n{p}", sch))
sch2={"type":"object","properties":{"choice":{"type":"string","enum":["A","B"]}},"required":["choice"]}
for a,b in [("'dlrow olleh'","'world hello'"),("'world hello'","'dlrow olleh'")]:
    q=f"No tool call now. From the GOAL's words alone, which value must `reverse_words('hello world')` return?\nA: {a}\nB: {b}\nAnswer with JSON: {{\"choice\": \"A\" or \"B\"}}"
    print(a,b, ask(f"GOAL: {goal}\n\n{q}", sch2))
