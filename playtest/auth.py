"""The designer's password: stored only as a salted scrypt hash, checked in constant time.

Where the hash lives, first found wins: the ``PLAYTEST_DESIGNER_PASSWORD_HASH`` environment
variable, then ``designer_password_hash`` in ``.streamlit/secrets.toml`` of the working
folder (what ``playtest designer set-password`` writes).

>>> stored = hash_password("correct horse", salt=b"0123456789abcdef")
>>> verify_password("correct horse", stored), verify_password("wrong", stored)
(True, False)

A signed-in designer's browser keeps a cookie made by :func:`sign_token`: an expiry time
and an HMAC over it (and a fingerprint of the password hash, so a new password ends every
old sign-in) with a server key that is not the password hash.

>>> key = b"k" * 32
>>> token = sign_token(key, stored, now_s=1000, lifetime_s=60)
>>> token_valid(token, key, stored, now_s=1059), token_valid(token, key, stored, now_s=1061)
(True, False)
>>> token_valid(token, key, hash_password("new one here", salt=b"x" * 16), now_s=1000)
False
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import time
from pathlib import Path
from typing import TextIO

from playtest.settings import PASSWORD_HASH_ENV, SECRETS_KEY, load_settings, secrets_path

ENV_VAR = PASSWORD_HASH_ENV
_N, _R, _P = 2**14, 8, 1
MIN_PASSPHRASE = 12
COOKIE_NAME = "playtest_designer"
COOKIE_LIFETIME_S = 12 * 3600



def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """``scrypt$<salt b64>$<hash b64>`` for a password."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return "scrypt${}${}".format(
        base64.b64encode(salt).decode("ascii"), base64.b64encode(digest).decode("ascii")
    )


def verify_password(password: str, stored: str) -> bool:
    """True when ``password`` matches the stored hash (constant-time comparison)."""
    try:
        scheme, salt_b64, digest_b64 = stored.split("$")
        salt = base64.b64decode(salt_b64)
        expected = base64.b64decode(digest_b64)
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return hmac.compare_digest(digest, expected)


def stored_hash(folder: Path | None = None) -> str | None:
    """The configured password hash, or None when no password is set yet
    (:mod:`playtest.settings`: the environment, then the secrets file)."""
    return load_settings(folder).designer_password_hash


def write_hash(password_hash: str, folder: Path | None = None) -> Path:
    """Store the hash in ``.streamlit/secrets.toml``, keeping the file's other lines."""
    path = secrets_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    if path.is_file():
        lines = [
            line for line in path.read_text(encoding="utf-8").splitlines()
            if not line.strip().startswith(SECRETS_KEY)
        ]
    lines.insert(0, f'{SECRETS_KEY} = "{password_hash}"')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    path.chmod(0o600)
    return path


def set_password(password: str, folder: Path | None = None) -> Path:
    if len(password.strip()) < MIN_PASSPHRASE:
        raise ValueError(f"the designer password needs at least {MIN_PASSPHRASE} characters "
                         "(a passphrase of a few words is easiest to remember)")
    return write_hash(hash_password(password), folder)


def ensure_password(folder: Path | None = None) -> str | None:
    """Create a password when none is set; return it (to print once) or None."""
    if stored_hash(folder):
        return None
    password = secrets.token_urlsafe(15)
    write_hash(hash_password(password), folder)
    return password


PASSWORD_FILE = "designer-password.txt"


def announce_password(password: str, stream: TextIO, folder: Path | None = None) -> Path | None:
    """Tell a new password once: on a terminal, print it; otherwise (a log, a pipe, a
    service manager's journal) write it to a file only its owner can read and say where.

    Returns the file written, or None when the password was printed.
    """
    if stream.isatty():
        print(f"Designer password (shown once; change it with `playtest designer "
              f"set-password`): {password}", file=stream, flush=True)
        return None
    path = secrets_path(folder).parent / PASSWORD_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(password + "\n")
    print(f"Designer password written to {path} (readable only by you; delete the file "
          f"once you have noted it, or set your own with `playtest designer set-password`)",
          file=stream, flush=True)
    return path


def _mac(key: bytes, expires: int, password_hash: str) -> str:
    fingerprint = hashlib.sha256(password_hash.encode("utf-8")).hexdigest()
    message = f"designer|{expires}|{fingerprint}".encode("ascii")
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def sign_token(key: bytes, password_hash: str, *, now_s: float | None = None,
               lifetime_s: int = COOKIE_LIFETIME_S) -> str:
    """``<expiry>.<hmac>``: the designer's sign-in cookie value."""
    expires = int((time.time() if now_s is None else now_s) + lifetime_s)
    return f"{expires}.{_mac(key, expires, password_hash)}"


def token_valid(token: str | None, key: bytes, password_hash: str, *,
                now_s: float | None = None) -> bool:
    """True for an unexpired token this server signed for the current password."""
    if not token or token.count(".") != 1:
        return False
    expires_text, mac = token.split(".")
    if not expires_text.isdigit() or len(expires_text) > 12:
        return False
    expires = int(expires_text)
    if expires < (time.time() if now_s is None else now_s):
        return False
    return hmac.compare_digest(mac, _mac(key, expires, password_hash))
