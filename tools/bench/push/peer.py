"""The peer of PushBench: the same work per push with the reference implementations
(http_ece's aes128gcm encryption with a fresh key pair and salt, py_vapid's ES256 VAPID
header), single-threaded, CPU time. Usage: peer.py COUNT [PAYLOAD_BYTES,...]"""
import json, os, sys, time
import http_ece, py_vapid
from cryptography.hazmat.primitives.asymmetric import ec

count = int(sys.argv[1])
sizes = [int(s) for s in sys.argv[2].split(",")] if len(sys.argv) > 2 else [200, 3993]
receiver = ec.generate_private_key(ec.SECP256R1()).public_key()
auth = os.urandom(16)
vapid = py_vapid.Vapid02()
vapid.generate_keys()
claims = {"aud": "https://push.example.org", "sub": "mailto:bench@example.org"}

def cpu(body):
    start = time.thread_time()
    for _ in range(count):
        body()
    return time.thread_time() - start

signing = cpu(lambda: vapid.sign(dict(claims, exp=int(time.time()) + 43200)))
for size in sizes:
    payload = b"a" * size
    encrypting = cpu(lambda: http_ece.encrypt(payload, salt=os.urandom(16), private_key=ec.generate_private_key(ec.SECP256R1()),
                                              dh=receiver, auth_secret=auth, version="aes128gcm", rs=4096))
    total = encrypting + signing
    print(json.dumps({"payload_bytes": size, "pushes": count, "cpu_seconds": round(total, 3),
                      "pushes_per_cpu_second": round(count / total), "encryption_per_cpu_second": round(count / encrypting),
                      "vapid_share": round(signing / total, 2)}, sort_keys=True))
