# Stands in for ansible-test's pip bootstrap script (get-pip.py, which ansible-test downloads from
# ci-files.testing.ansible.com, a host CI cannot reach): the same interface, `python get-pip.py
# <pip install arguments>`, done with Python's own ensurepip (Debian: python3-venv) and then pip
# from the package registry, which installs the pinned pip, setuptools and wheel ansible-test asks for.
import ensurepip
import subprocess
import sys

ensurepip.bootstrap()
sys.exit(subprocess.call([sys.executable, '-m', 'pip', 'install', '--upgrade', '--force-reinstall'] + sys.argv[1:]))
