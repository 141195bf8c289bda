"""The designer's password: stored only as a salted scrypt hash, checked in constant time.

Where the hash lives, first found wins: the ``PLAYTEST_DESIGNER_PASSWORD_HASH`` environment
variable, then ``designer_password_hash`` in ``.streamlit/secrets.toml`` of the working
folder (what ``playtest designer set-password`` writes).

>>> stored = hash_password("correct horse", salt=b"0123456789abcdef")
>>> verify_password("correct horse", stored), verify_password("wrong", stored)
(True, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import tomllib
from pathlib import Path

ENV_VAR = "PLAYTEST_DESIGNER_PASSWORD_HASH"
SECRETS_KEY = "designer_password_hash"
_N, _R, _P = 2**14, 8, 1


def secrets_path(folder: Path | None = None) -> Path:
    return (folder or Path.cwd()) / ".streamlit" / "secrets.toml"


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
    """The configured password hash, or None when no password is set yet."""
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        return from_env
    path = secrets_path(folder)
    if path.is_file():
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            return None
        value = data.get(SECRETS_KEY)
        return str(value) if value else None
    return None


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
    if len(password) < 8:
        raise ValueError("the designer password needs at least 8 characters")
    return write_hash(hash_password(password), folder)


def ensure_password(folder: Path | None = None) -> str | None:
    """Create a password when none is set; return it (to print once) or None."""
    if stored_hash(folder):
        return None
    password = secrets.token_urlsafe(12)
    write_hash(hash_password(password), folder)
    return password
