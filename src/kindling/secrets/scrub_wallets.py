"""The places of ``secrets.scrub_commands`` where a cryptocurrency wallet's secret is kept
(issue 32, fifteenth pass).

A wallet's seed phrase after its name (BIP-39: 12 to 24 words, ``mnemonic: "legal winner
..."``, ``SEED_PHRASE=...``, ``recovery phrase: ...``): whoever reads it holds the wallet. And
a private key given to code that builds a wallet or an account from it (ethers'
``new Wallet("0x<64 hex>")``, web3.py's ``Account.from_key(...)``, viem's
``privateKeyToAccount(...)``): 32 bytes in hex, which alone read as a transaction's hash or a
digest, and are left there. Each is *certain*: what stands there is the secret. (A wallet's
address is public and left: ``secrets.scrub_ids``.)

Loaded with the other rules on the first call of ``scrub_secrets``. Must not import anything
from Kindling except ``secrets.scrub_files`` (``Place``).
"""

from __future__ import annotations

from kindling.secrets.scrub_files import Place

WALLET_PLACES: tuple[Place, ...] = (
    # The seed phrase: its name, ``:`` or ``=``, then 12 to 24 words of small letters (the
    # BIP-39 list's words are 3 to 8 letters long), quoted or not.
    Place(
        ("mnemonic", "seed phrase", "seed_phrase", "seedphrase", "recovery phrase", "seed words"),
        r"(?P<keep>(?i:mnemonic|seed[ _-]?phrase|(?:secret[ _-]?)?recovery[ _-]?phrase"
        r"|seed[ _-]?words)[\"'`]?[ \t]*+(?::=|=>|[:=])[ \t]*+[\"'`]?)"
        r"(?P<value>[a-z]{3,8}+(?:[ ][a-z]{3,8}+){11,23})(?![ ]?[a-z])",
        certain=True,
        kind="secret",
    ),
    # A private key given to the code that makes a wallet or an account of it.
    Place(
        ("wallet(", "from_key(", "privatekeytoaccount(", "fromprivatekey(", "privatekeytoaddress("),
        r"(?P<keep>(?:\bnew[ \t]++(?:ethers\.)?Wallet|\.from_key|\bprivateKeyToAccount"
        r"|\.fromPrivateKey|\bprivateKeyToAddress)\([ \t]*+[\"'`])"
        r"(?P<value>(?:0x)?+[0-9a-fA-F]{64})(?=[\"'`])",
        certain=True,
        kind="private_key",
    ),
)
