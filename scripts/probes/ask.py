import json, sys, urllib.request
import os
SYSTEM = open(os.path.join(os.path.dirname(__file__), 'system.txt')).read()
URL = os.environ.get('PROBE_URL', 'http://127.0.0.1:18080')
def ask(user, schema=None, temp=0.0, n=600):
    body = {"messages":[{"role":"system","content":SYSTEM},{"role":"user","content":user}],
            "temperature":temp, "max_tokens":n}
    if schema: body["response_format"]={"type":"json_schema","json_schema":{"name":"a","schema":schema}}
    r = urllib.request.urlopen(urllib.request.Request(URL + "/v1/chat/completions",
        data=json.dumps(body).encode(), headers={"Content-Type":"application/json"}), timeout=600)
    return json.loads(r.read())["choices"][0]["message"]["content"]
