"""The bundled demo news sites: a generator that knows every article's true text, and a server."""
