"""Training of the learned block classifier (the ``[train]`` extra: LightGBM, scikit-learn).

:mod:`.labels` aligns gold text to blocks, :mod:`.dataset` builds the feature rows of a dataset,
:mod:`.train` fits, cross-validates and exports models; :mod:`.cli` is the ``train`` command.
Imports every stage below it; nothing in the package imports it.
"""
