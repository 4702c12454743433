"""The registry of models by name, so ``model="empirical"`` and a user's class both work."""

from __future__ import annotations

from typing import Any

from ..errors import ScorestdError
from ._base import Model

__all__ = ["get_model", "model_names", "register_model"]

_REGISTRY: dict[str, type[Model]] = {}


def register_model(name: str, cls: type[Model]) -> type[Model]:
    """Register a :class:`~scorestd.models.Model` subclass under ``name``.

    Registering a name again replaces the model (so a session can redefine its own).

    Examples
    --------
    >>> from scorestd.models import Normal
    >>> class Webber(Normal):
    ...     name = "webber"
    >>> register_model("webber", Webber) is Webber
    True
    >>> get_model("webber").name
    'webber'
    """
    if not (isinstance(cls, type) and issubclass(cls, Model)):
        raise TypeError(f"a model must be a subclass of scorestd.models.Model, got {cls!r}")
    _REGISTRY[str(name)] = cls
    return cls


def get_model(name_or_class: str | type[Model] | Model) -> type[Model] | Model:
    """The model class registered as ``name_or_class``; a class or instance passes through.

    Raises
    ------
    ScorestdError
        For an unknown name (the message lists the registered ones).

    Examples
    --------
    >>> get_model("uniform")
    <class 'scorestd.models.uniform.Uniform'>
    >>> get_model("uniform")(A=0.2).options
    {'A': 0.2, 'B': 0.5}
    """
    if isinstance(name_or_class, Model):
        return name_or_class
    if isinstance(name_or_class, type) and issubclass(name_or_class, Model):
        return name_or_class
    if isinstance(name_or_class, str) and name_or_class in _REGISTRY:
        return _REGISTRY[name_or_class]
    raise ScorestdError(
        f"unknown model {name_or_class!r}; choose one of {model_names()} "
        "or pass a scorestd.models.Model subclass"
    )


def model_names() -> list[str]:
    """Names of the registered models, in registration order.

    Examples
    --------
    >>> model_names()[:4]
    ['normal', 'uniform', 'empirical', 'z']
    """
    return list(_REGISTRY)


def instantiate(model: str | type[Model] | Model, **options: Any) -> Model:
    """A model instance from a name, class or instance (options only with name/class)."""
    found = get_model(model)
    if isinstance(found, Model):
        if options:
            raise TypeError(f"options {sorted(options)} given with a model instance {found!r}")
        return found
    return found(**options)
